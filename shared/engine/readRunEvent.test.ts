import { describe, expect, it } from 'vitest';
import { readRunEvent, stepIdOf } from './readRunEvent';

describe('readRunEvent', () => {
  const base = { ts: '2026-01-01T00:00:00.000Z', seq: 1, run_id: 'r1', role: 'engine' as const };

  it('reads a type this version does not know as null instead of failing', () => {
    expect(readRunEvent({ ...base, type: 'from_a_newer_lathe', data: { anything: 1 } })).toBeNull();
  });

  it('reads a field an older log lacks, or wrote in another shape, as absent and keeps the rest', () => {
    const read = readRunEvent({ ...base, type: 'step_failed', data: { step_id: 'T1', reason: 42, extra: true } });
    expect(read).toMatchObject({ type: 'step_failed', data: { step_id: 'T1' } });
    expect(read?.data).toEqual({ step_id: 'T1' });
  });

  it('reads an old log line that names the step task_id under step_id', () => {
    const line =
      '{"ts":"2026-01-01T00:00:00.000Z","seq":7,"run_id":"r1","role":"git","type":"commit","data":{"sha":"abc","task_id":"T2","files":["a.js"]}}';
    const read = readRunEvent(JSON.parse(line));
    expect(read?.data).toEqual({ sha: 'abc', step_id: 'T2', files: ['a.js'] });
    expect(read && stepIdOf(read)).toBe('T2');
    const report = readRunEvent({
      ...base,
      role: 'tester',
      type: 'tester_report',
      data: { task_id: 'T1', passed: true, report: 'ok', model_passed: true },
    });
    expect(report?.data).toMatchObject({ step_id: 'T1', passed: true });
  });

  it('reads an old code under its one name, and a code it does not know as INTERNAL', () => {
    const finished = (code: string) =>
      readRunEvent({
        ...base,
        type: 'run_finished',
        data: { status: 'failed', exit_code: 2, reason: 'dirty', code, commits: [] },
      });
    expect(finished('GIT_DIRTY_WORKTREE')?.data).toMatchObject({ code: 'DIRTY_WORKTREE' });
    expect(
      readRunEvent({
        ...base,
        type: 'edit_rejected',
        data: { code: 'GIT_INVALID_PATH', rule: null, path: 'a', message: 'm' },
      })?.data,
    ).toMatchObject({ code: 'INVALID_PATH' });
    expect(finished('MODEL_LOAD_FAILED')?.data).toMatchObject({ code: 'MODEL_LOAD_FAILED' });
    expect(finished('FROM_A_NEWER_LATHE')?.data).toMatchObject({ code: 'INTERNAL' });
  });
});
