/** The context engine: a symbol map of the repository, ranking for a query, and budgeted context. */
export { buildContext, wholeFileTokens } from './buildContext';
export { type BuiltContext } from './contextAssembly';
export { type ContextEntry } from '../../../shared/schemas/agentContext';
export { buildOverview } from './overview';
export { classifyHunks, unrelatedFeedback } from './hunkScope';
export { type HunkScope, type ProposedFileChange, type ScopeEvidence } from '../../../shared/schemas/scope';
export { rankFiles, isTestPath, type RankMethod, type RankedFile } from './rank';
export {
  buildRepoMap,
  clearRepoMapMemory,
  gitBlobId,
  type RepoMap,
  type RepoMapOptions,
  type MappedFile,
} from './repoMap';
export { roleBudget, type RoleBudget } from './roleBudget';
export { extractSymbols, plainSymbols, type FileSymbol } from './symbols';
export type { ContextQuery } from './querySignals';
