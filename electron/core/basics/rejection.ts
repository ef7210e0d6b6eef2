import { LatheError } from '../../../shared/errors';

/** Rule names carried in `data.rule` of an EDIT_REJECTED error, with `data.path`. */
export const GUARDRAIL_RULES = [
  'absolute-path',
  'escapes-repo',
  'symlink-escape',
  'git-dir',
  'lathe-dir',
  'not-an-artifact',
  'tests-read-only',
  'protected-path',
  'too-large',
  'binary-content',
  'invalid-path',
  'patch-does-not-apply',
  'search-not-found',
  'duplicate-path',
  'elided-code',
  'drops-code',
  'duplicate-file',
  /** An answer, or an edit of it, that changes nothing. */
  'no-change',
  /** The step commit: a file git would store through a filter driver, which Lathe never runs. */
  'needs-filter',
] as const;
export type GuardrailRule = (typeof GUARDRAIL_RULES)[number];

export interface EditRejectionData {
  rule: GuardrailRule;
  path: string;
  [key: string]: unknown;
}

/** The one error every refused edit becomes: EDIT_REJECTED naming the rule and the path. */
export function rejectEdit(
  rule: GuardrailRule,
  path: string,
  message: string,
  extra: Record<string, unknown> = {},
): LatheError {
  const data: EditRejectionData = { ...extra, rule, path };
  return new LatheError('EDIT_REJECTED', `${path}: ${message} (${rule})`, data);
}

/** A proposal that does not match its format's schema at all (malformed model output). */
export function invalidProposal(format: string, issues: string[]): LatheError {
  return new LatheError(
    'INVALID_PROPOSAL',
    `the ${format} proposal does not match its schema: ${issues.slice(0, 5).join('; ')}`,
    {
      format,
      issues: issues.slice(0, 20),
    },
  );
}
