import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ActionOutcome } from './engine/actions';
import { errorCodes, isLatheError, LatheError, LatheErrorSchema, type ErrorCode } from './errors';

/*
 * Checked by `tsc -b`: each `@ts-expect-error` below must stay an error, or the build fails with
 * "Unused '@ts-expect-error' directive". A code not in the closed list cannot be made anywhere.
 */
export const made = [
  new LatheError('EDIT_REJECTED', 'listed'),
  new LatheError('GIT_RUN_BRANCH_MISSING', 'a git reason'),
  // @ts-expect-error a code nobody listed
  new LatheError('EDIT_EXPLODED', 'unlisted'),
  // @ts-expect-error a git reason nobody listed
  new LatheError('GIT_ON_FIRE', 'unlisted'),
];

export const outcomes: ActionOutcome[] = [
  { kind: 'fatal', code: 'NO_WORKSPACE', message: 'listed' },
  // @ts-expect-error an outcome's code is from the list too
  { kind: 'fatal', code: 'NO_WORKSPAC', message: 'a typo' },
];

// @ts-expect-error asking for a code that does not exist is a type error, not a silent false
export const asked = (error: unknown) => isLatheError(error, 'RUN_BRANCH_MISSING');

describe('the closed list of error codes', () => {
  it('types a LatheError code as the union', () => {
    expectTypeOf<LatheError['code']>().toEqualTypeOf<ErrorCode>();
  });

  it('holds each code once', () => {
    expect(new Set(errorCodes).size).toBe(errorCodes.length);
  });

  it('reads another version’s unknown code from disk or the wire as INTERNAL, and a known one as itself', () => {
    expect(LatheErrorSchema.parse({ code: 'SOMETHING_NEWER', message: 'm' }).code).toBe('INTERNAL');
    expect(LatheErrorSchema.parse({ code: 'GIT_RUN_BRANCH_MISSING', message: 'm' }).code).toBe(
      'GIT_RUN_BRANCH_MISSING',
    );
  });

  it('has one name for a failure git shares with the core, and reads the old git name under it', () => {
    expect(errorCodes).not.toContain('GIT_DIRTY_WORKTREE');
    expect(LatheErrorSchema.parse({ code: 'GIT_DIRTY_WORKTREE', message: 'm' }).code).toBe('DIRTY_WORKTREE');
    expect(LatheErrorSchema.parse({ code: 'GIT_ISOMORPHIC_UNSAFE', message: 'm' }).code).toBe('ISOMORPHIC_UNSAFE');
  });
});
