import fs from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Handlers } from '../../../shared/contract/api';
import { requestChannelNames } from '../../../shared/contract/channels';
import { commonErrorCodes } from '../../../shared/errors';
import { APP_ROOT, makeExampleRepo } from '../../../test-support/exampleRepo';
import { seededRandom } from '../../../test-support/faults/faultyModel';
import { makeTempDir } from '../../../test-support/tempRepo';
import { createCore } from './coreHandlers';
import { dispatch } from './dispatch';
import { EventBus } from '../runs/eventBus';

const dataDir = makeTempDir('lathe-fuzz-');
const repo = makeExampleRepo('js-stats');
afterAll(() => {
  repo.remove();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
const handlers: Handlers = {
  ...createCore({ mode: 'browser', dataDir, events: new EventBus(), appRoot: APP_ROOT }).handlers,
  'dialog/openFolder': async () => ({ path: null }),
};

/** Codes a hostile payload may legitimately earn; anything else (or a throw) is a defect. */
const EXPECTED = new Set<string>([
  ...commonErrorCodes,
  'RUN_NOT_FOUND',
  'NO_WORKSPACE',
  'BAD_CONFIG',
  'UNKNOWN_WORKFLOW',
  'NO_MODEL',
  'DIRTY_WORKTREE',
  'RUN_ACTIVE',
  'RUN_STATE_INVALID',
]);

const HUGE = 'x'.repeat(5 * 1024 * 1024);
const hostile: unknown[] = [
  undefined,
  null,
  42,
  'string',
  [],
  true,
  { path: 42 },
  { repo: ['a'] },
  { path: HUGE },
  { repo: HUGE, runId: HUGE },
  JSON.parse('{"__proto__": {"polluted": true}, "path": "/"}'),
  JSON.parse('{"constructor": {"prototype": {"polluted": true}}, "repo": "/"}'),
  { path: '/etc' },
  { path: '/etc/passwd' },
  { path: '../../../../etc' },
  { repo: '/', runId: '../../../etc' },
  { repo: repo.dir, runId: '../../../../etc/passwd' },
  { repo: repo.dir, runId: '20260101T000000Z' },
  { repo: repo.dir, runId: '20260101T000000Z', verifyRunId: '../../../../etc' },
  { repo: repo.dir, goal: 'x', workflow: 'nope', model: 'replay:/etc/passwd' },
  { repo: repo.dir, goal: '', model: 'replay:x' },
  { modelFolders: 'not-an-array' },
  { theme: { nested: { deeply: [1, 2, 3] } } },
  JSON.parse(`${'['.repeat(5000)}${']'.repeat(5000)}`),
];

function randomValue(random: () => number, depth = 0): unknown {
  const pick = Math.floor(random() * 8);
  if (depth > 3 || pick < 3)
    return [null, 0, -1, 1e308, '', '\u0000', '../..', 'x'.repeat(300)][Math.floor(random() * 8)];
  if (pick < 5) return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1));
  const keys = [
    'path',
    'repo',
    'runId',
    'goal',
    'gateId',
    'approved',
    'comment',
    'afterSeq',
    'limit',
    'from',
    'to',
    'theme',
    '__proto__',
    'constructor',
  ];
  return Object.fromEntries(
    Array.from({ length: Math.floor(random() * 5) }, () => [
      keys[Math.floor(random() * keys.length)] ?? 'x',
      randomValue(random, depth + 1),
    ]),
  );
}

describe('every contract channel under hostile payloads', () => {
  it.each(requestChannelNames)('%s answers typed errors, never throws, never pollutes prototypes', async (channel) => {
    const readSpy = vi.spyOn(fs, 'readFileSync');
    const asyncReadSpy = vi.spyOn(fs.promises, 'readFile');
    const random = seededRandom(channel.length * 7919);
    const payloads = [...hostile, ...Array.from({ length: 60 }, () => randomValue(random))];
    for (const payload of payloads) {
      const result = await dispatch(handlers, channel, payload);
      if (!result.ok)
        expect(EXPECTED, `${channel} → ${result.error.code}: ${result.error.message}`).toContain(result.error.code);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
    const reads = [...readSpy.mock.calls, ...asyncReadSpy.mock.calls].map(([file]) => String(file));
    expect(reads.filter((file) => file.startsWith('/etc'))).toEqual([]);
    readSpy.mockRestore();
    asyncReadSpy.mockRestore();
  });
});
