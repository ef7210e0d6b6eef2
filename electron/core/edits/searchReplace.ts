import { z } from 'zod';
import { LIMITS, repoPath } from '../../../shared/schemas/agents/bounds';
import type { EditFormat, EditPolicy, PlannedEditSet, PlannedFileChange, WorkspaceReader } from './types';
import { describeClosestRegion } from './closestRegion';
import { PathPolicy } from './guardrails';
import { missingFileMessage } from './nearestPaths';
import { checkedEditSet } from './planChecks';
import { parseProposal } from './proposal';
import { rejectEdit } from '../basics/rejection';
import { replaceBlock } from './textMatch';

/** Search/replace blocks, applied in order; an empty `search` creates a new file. */
export const SearchReplaceProposalSchema = z.object({
  edits: z
    .array(
      z.object({
        path: repoPath(),
        search: z.string().max(LIMITS.fileContent),
        replace: z.string().max(LIMITS.fileContent),
      }),
    )
    .min(1)
    .max(LIMITS.artifacts * 2),
});
export type SearchReplaceProposal = z.infer<typeof SearchReplaceProposalSchema>;

export const searchReplaceFormat: EditFormat<SearchReplaceProposal> = {
  name: 'search-replace',
  schema: SearchReplaceProposalSchema,
  async plan(proposal: SearchReplaceProposal, reader: WorkspaceReader, policy: EditPolicy): Promise<PlannedEditSet> {
    const { edits } = parseProposal('search-replace', SearchReplaceProposalSchema, proposal);
    const rules = new PathPolicy(policy);
    const originals = new Map<string, string | null>();
    const current = new Map<string, string | null>();
    const unchanged: string[] = [];
    for (const [index, edit] of edits.entries()) {
      const normalized = rules.check(edit.path);
      if (!originals.has(normalized)) {
        const before = await reader.read(normalized);
        originals.set(normalized, before);
        current.set(normalized, before);
      }
      const content = current.get(normalized) ?? null;
      if (content === null && edit.search !== '') {
        const missing = await missingFileMessage(normalized, reader, 'to create it, use an empty search');
        throw rejectEdit('search-not-found', normalized, `edit ${index + 1}: ${missing.message}`, {
          suggestions: missing.suggestions,
        });
      }
      const after = applyOne(normalized, index, content, edit.search, edit.replace);
      if (after === content)
        unchanged.push(
          `edit ${index + 1} (${normalized}): ${edit.search === edit.replace ? 'its replace is the same as its search' : 'applying it leaves the file as it was'}`,
        );
      current.set(normalized, after);
    }
    const changes: PlannedFileChange[] = [];
    for (const [normalized, after] of current) {
      const before = originals.get(normalized) ?? null;
      if (after === null || after === before) continue;
      rules.checkContent(normalized, after);
      changes.push({ path: normalized, before, after });
    }
    return checkedEditSet('search-replace', changes, reader, rules, unchanged);
  },
};

function applyOne(filePath: string, index: number, content: string | null, search: string, replace: string): string {
  if (search === '') {
    if (content === null || content === '') return replace;
    throw rejectEdit(
      'search-not-found',
      filePath,
      `edit ${index + 1}: an empty search creates a new file, but this file already exists`,
    );
  }
  if (content === null) throw rejectEdit('search-not-found', filePath, `edit ${index + 1}: the file does not exist`);
  const result = replaceBlock(content, search, replace);
  // A block that replaces itself changes nothing, wherever it is found (the loose match would re-indent it).
  if (search === replace && result.kind !== 'not-found') return content;
  if (result.kind === 'replaced') return result.content;
  if (result.kind === 'ambiguous') {
    throw rejectEdit(
      'search-not-found',
      filePath,
      `edit ${index + 1}: the search block matches ${result.count} places; include more lines to make it unique`,
      {
        matches: result.count,
      },
    );
  }
  throw rejectEdit(
    'search-not-found',
    filePath,
    `edit ${index + 1}: the search block was not found; ${describeClosestRegion(content, search, 'search')}`,
    {
      search: search.slice(0, 200),
    },
  );
}
