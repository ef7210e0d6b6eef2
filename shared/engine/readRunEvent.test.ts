import { describe, expect, it } from 'vitest';
import { readRunEvent } from './readRunEvent';

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
});
