import type { z } from 'zod';
import type { EditFormatName } from './types';
import { invalidProposal, rejectEdit } from '../basics/rejection';

/**
 * Validates a proposal against its format schema. A bound exceeded on a file's content becomes
 * `too-large` naming that path (the Coder wrote too much); anything else is INVALID_PROPOSAL.
 */
export function parseProposal<T>(format: EditFormatName, schema: z.ZodType<T>, proposal: unknown): T {
  const parsed = schema.safeParse(proposal);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    const [list, index, field] = issue.path;
    if (
      issue.code === 'too_big' &&
      list === 'edits' &&
      typeof index === 'number' &&
      (field === 'content' || field === 'replace' || field === 'search')
    ) {
      const edits = (proposal as { edits?: { path?: unknown }[] }).edits;
      const filePath = edits?.[index]?.path;
      throw rejectEdit(
        'too-large',
        typeof filePath === 'string' ? filePath.slice(0, 300) : `edits[${index}]`,
        `${field} is over the format's size bound`,
      );
    }
    if (issue.code === 'too_big' && list === 'diff') {
      const diff = (proposal as { diff: string }).diff.slice(0, 4096);
      const named = /^\+\+\+ (?:b\/)?([^\t\n]+)/m.exec(diff)?.[1] ?? '(diff)';
      throw rejectEdit('too-large', named.trim().slice(0, 300), "the diff is over the format's size bound");
    }
  }
  throw invalidProposal(
    format,
    parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`),
  );
}
