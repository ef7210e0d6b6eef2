import { describe, expect, it } from 'vitest';
import type { RunLogEvent } from '../../../shared/schemas/run';
import { ProgressPrinter } from './progress';

function printed(events: Omit<RunLogEvent, 'ts' | 'seq' | 'run_id'>[]): string[] {
  const out: string[] = [];
  const printer = new ProgressPrinter({ out: (line) => out.push(line), err: () => undefined, env: {}, cwd: '/' });
  events.forEach((event, index) => printer.onEvent({ ts: 't', seq: index + 1, run_id: 'r1', ...event }));
  return out;
}

describe('ProgressPrinter', () => {
  // Issue 29: a supervised verify-only task printed `commit  ()` after "coder → edits".
  it('says nothing was committed when an answer changed no file', () => {
    const events = [
      { role: 'coder', type: 'patch', data: { step_id: 'T2', files: [], format: 'search-replace' } },
      { role: 'git', type: 'commit', data: { sha: null, step_id: 'T2', files: [] } },
    ] as const;
    expect(printed([...events])).toEqual(['    coder → no edits', '    nothing to commit']);
  });

  it('says when a whole-file writer switched to search-replace, with the overflow and not the advice (decision 105)', () => {
    const reason =
      "whole-file needs ~61784 tokens to show and rewrite src/big.js (~27745) in the coder's 32768-token window; use the search-replace or unified-diff edit format";
    const event = {
      role: 'engine',
      type: 'edit_format_fallback',
      data: { step_id: 'T1', from: 'whole-file', to: 'search-replace', reason },
    } as const;
    expect(printed([event])).toEqual([
      "    edit format whole-file → search-replace for the rest of the run: whole-file needs ~61784 tokens to show and rewrite src/big.js (~27745) in the coder's 32768-token window",
    ]);
  });

  it('names the commit and its files otherwise', () => {
    const events = [
      { role: 'coder', type: 'patch', data: { step_id: 'T1', files: ['src/a.js'], format: 'whole-file' } },
      { role: 'git', type: 'commit', data: { sha: '0123456789abcdef', step_id: 'T1', files: ['src/a.js', 'b c.js'] } },
    ] as const;
    expect(printed([...events])).toEqual(['    coder → edits src/a.js', '    commit 0123456789 (src/a.js, b c.js)']);
  });

  // Issue 30: the run start says how the test command was found, and what the setup put back.
  it('shows the detected test command with its reason, and what the setup restored', () => {
    const events = [
      {
        role: 'engine',
        type: 'workspace_setup',
        data: {
          status: 'passed',
          reason: null,
          argv: ['npm', 'install'],
          cwd: '/w',
          exit_code: 0,
          timed_out: false,
          duration_ms: 5,
          output: '',
          log_file: null,
          restored: ['package-lock.json'],
          note: 'restored package-lock.json (the installer rewrote it)',
        },
      },
      {
        role: 'git',
        type: 'workspace_ready',
        data: {
          branch: 'lathe/r1',
          base: 'abc',
          work_dir: '/w',
          mode: 'worktree',
          test_command: ['npx', 'jest'],
          test_command_source: 'detected: jest (jest.config.js; no scripts.test)',
        },
      },
    ] as const;
    expect(printed([...events])).toEqual([
      '  setup passed: npm install · restored package-lock.json (the installer rewrote it)',
      '  branch lathe/r1 (worktree) · tests: npx jest (detected: jest (jest.config.js; no scripts.test))',
    ]);
  });
});
