import { describe, expect, it } from 'vitest';
import { recordedLog } from './fixtures/loadLog';
import { describeEvent } from './describeEvent';
import { countBy, EMPTY_FILTER, filterEvents } from './timelineFilter';

const events = recordedLog('supervised');
const text = (seq: number) => {
  const event = events.find((candidate) => candidate.seq === seq);
  if (!event) throw new Error(`no event ${seq}`);
  return describeEvent(event);
};

describe('timeline lines', () => {
  it('says what happened in words, with a tone', () => {
    expect(text(2)).toEqual({ text: 'preparing → planning', tone: 'info' });
    expect(text(7).text).toBe('plan plan_0001: 2 step(s)');
    expect(text(12)).toEqual({
      text: 'supervisor, plan gate: approved · 86/70 — Actionable steps, T2 correctly depends on T1.',
      tone: 'ok',
    });
    expect(text(23)).toMatchObject({ text: 'tests: FAIL 2 passed, 2 failed (0.1 s)', tone: 'fail' });
    expect(text(29)).toEqual({ text: 'fix cycle 1/3 T1', tone: 'warn' });
    expect(text(89)).toEqual({ text: 'run complete (exit 0): the Supervisor confirmed the goal is met', tone: 'ok' });
  });

  it("shows a file name that is not UTF-8, or holds control characters, in git's quoting (issue 27)", () => {
    const commit = {
      ts: 't',
      seq: 1,
      run_id: 'r',
      role: 'git' as const,
      type: 'commit',
      data: { sha: 'abcdef0123456789', step_id: 'T1', files: ['caf\udce9.txt', 'new\nline.txt', 'src/ok.js'] },
    };
    expect(describeEvent(commit).text).toBe('commit abcdef0123 · "caf\\351.txt", "new\\nline.txt", src/ok.js');
  });

  it("shows how the test command was detected, and a setup's restored lockfile as a warning (issue 30)", () => {
    const ready = {
      ts: 't',
      seq: 1,
      run_id: 'r',
      role: 'git' as const,
      type: 'workspace_ready',
      data: {
        branch: 'lathe/r',
        base: 'abc',
        work_dir: '/w',
        mode: 'worktree',
        test_command: ['python3', '-m', 'pytest', 'toolz/tests'],
        test_command_source: 'detected: pytest (tests inside toolz/)',
      },
    };
    expect(describeEvent(ready).text).toBe(
      'branch lathe/r (worktree) · tests: python3 -m pytest toolz/tests (detected: pytest (tests inside toolz/))',
    );
    const data = {
      status: 'passed',
      reason: null,
      argv: ['npm', 'ci'],
      cwd: '/w',
      exit_code: 0,
      timed_out: false,
      duration_ms: 1,
      output: '',
      log_file: null,
      restored: ['package-lock.json'],
      note: 'restored package-lock.json (the installer rewrote it)',
    };
    expect(describeEvent({ ts: 't', seq: 2, run_id: 'r', role: 'engine', type: 'workspace_setup', data })).toEqual({
      text: 'setup passed: npm ci · restored package-lock.json (the installer rewrote it)',
      tone: 'warn',
    });
  });

  it('says when a whole-file writer switched to search-replace, and why (decision 105)', () => {
    const data = {
      step_id: 'T1',
      from: 'whole-file',
      to: 'search-replace',
      reason:
        "whole-file needs ~92974 tokens to show and rewrite more_itertools/more.py (~42031) in the coder's 32768-token window",
    };
    expect(describeEvent({ ts: 't', seq: 3, run_id: 'r', role: 'engine', type: 'edit_format_fallback', data })).toEqual(
      {
        text: "edit format whole-file → search-replace for the rest of the run: whole-file needs ~92974 tokens to show and rewrite more_itertools/more.py (~42031) in the coder's 32768-token window",
        tone: 'warn',
      },
    );
  });

  it('describes every event of a recorded run without falling back to the raw type', () => {
    const fallbacks = events.filter((event) => describeEvent(event).text === event.type.replaceAll('_', ' '));
    expect(fallbacks.map((event) => event.type)).toEqual([]);
  });
});

describe('timeline filters', () => {
  it('filters by role, type and text, and counts what there is', () => {
    const counts = countBy(events);
    expect(counts.roles.get('supervisor')).toBe(24);
    expect(counts.types.get('test_result')).toBe(3);
    const describe = (event: (typeof events)[number]) => describeEvent(event).text;
    expect(filterEvents(events, EMPTY_FILTER, describe)).toBe(events);
    expect(filterEvents(events, { roles: ['verifier'], type: null, text: '' }, describe)).toHaveLength(3);
    expect(filterEvents(events, { roles: ['supervisor', 'git'], type: 'verdict', text: '' }, describe)).toHaveLength(6);
    expect(
      filterEvents(events, { roles: [], type: null, text: 'FIX CYCLE' }, describe).map((event) => event.seq),
    ).toEqual([29]);
  });
});
