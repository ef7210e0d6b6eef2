import { LatheError } from '../../../shared/errors';
import type { GuardrailRule } from '../workspace/types';

export interface EditRejectionData {
  rule: GuardrailRule;
  path: string;
  [key: string]: unknown;
}

/** The one error every refused edit becomes: EDIT_REJECTED naming the rule and the path. */
export function rejectEdit(rule: GuardrailRule, path: string, message: string, extra: Record<string, unknown> = {}): LatheError {
  const data: EditRejectionData = { ...extra, rule, path };
  return new LatheError('EDIT_REJECTED', `${path}: ${message} (${rule})`, data);
}

/** A proposal that does not match its format's schema at all (malformed model output). */
export function invalidProposal(format: string, issues: string[]): LatheError {
  return new LatheError('INVALID_PROPOSAL', `the ${format} proposal does not match its schema: ${issues.slice(0, 5).join('; ')}`, {
    format,
    issues: issues.slice(0, 20),
  });
}
