import { z } from 'zod';
import { LIMITS, repoPath } from '../../../shared/schemas/agents/bounds';
import type { EditFormat, EditPolicy, PlannedEditSet, PlannedFileChange, WorkspaceReader } from './types';
import { PathPolicy } from './guardrails';
import { checkedEditSet } from './planChecks';
import { parseProposal } from './proposal';
import { rejectEdit } from '../basics/rejection';

/** Seed 000 Coder output: full contents per file, sorted by path. */
export const WholeFileProposalSchema = z.object({
  edits: z
    .array(z.object({ path: repoPath(), content: z.string().max(LIMITS.fileContent) }))
    .min(1)
    .max(LIMITS.artifacts),
});
export type WholeFileProposal = z.infer<typeof WholeFileProposalSchema>;

export const wholeFileFormat: EditFormat<WholeFileProposal> = {
  name: 'whole-file',
  schema: WholeFileProposalSchema,
  async plan(proposal: WholeFileProposal, reader: WorkspaceReader, policy: EditPolicy): Promise<PlannedEditSet> {
    const { edits } = parseProposal('whole-file', WholeFileProposalSchema, proposal);
    const rules = new PathPolicy(policy);
    const seen = new Set<string>();
    const changes: PlannedFileChange[] = [];
    for (const edit of edits) {
      const normalized = rules.check(edit.path);
      if (seen.has(normalized))
        throw rejectEdit('duplicate-path', normalized, 'the same file appears twice in one edit set');
      seen.add(normalized);
      rules.checkContent(normalized, edit.content);
      const before = await reader.read(normalized);
      if (before !== edit.content) changes.push({ path: normalized, before, after: edit.content });
    }
    return checkedEditSet('whole-file', changes, reader, rules);
  },
};
