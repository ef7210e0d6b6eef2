import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildRunView } from '../../../shared/runView/reduceRunEvents';
import { RunLogCache } from './logCache';
import { RunViewCache } from './runViewCache';

// A recorded supervised run (the renderer's reducer tests read the same log).
const log = new RunLogCache().read(
  path.join(
    path.dirname(fileURLToPath(import.meta.url)),
    '../../../renderer/src/runView/fixtures/supervised.log.jsonl',
  ),
);

describe('the core keeps one run-view projection per run log', () => {
  it('moves the projection forward by the appended events and ends where a full replay ends', () => {
    const cache = new RunViewCache();
    expect(log.length).toBeGreaterThan(50);
    const cut = Math.floor(log.length / 2);
    const early = cache.viewOf('run/log.jsonl', log.slice(0, cut));
    expect(early.lastSeq).toBe(log[cut - 1]?.seq);
    const full = cache.viewOf('run/log.jsonl', log);
    expect(full).toEqual(buildRunView(log));
    expect(full.reduced).toBe(log.length);
  });

  it('hands back the same projection while the log has not grown', () => {
    const cache = new RunViewCache();
    expect(cache.viewOf('a/log.jsonl', log)).toBe(cache.viewOf('a/log.jsonl', log));
  });

  it('reduces again from the start when the log was rewritten shorter', () => {
    const cache = new RunViewCache();
    cache.viewOf('b/log.jsonl', log);
    const shorter = log.slice(0, 5);
    expect(cache.viewOf('b/log.jsonl', shorter)).toEqual(buildRunView(shorter));
  });
});
