/**
 * The workspace layer's public API: everything Lathe does to a user's repository goes through here.
 * Each floor of the foundation keeps its own contract types; this file gathers them with the implementations.
 */
export { GUARDRAIL_RULES, type GuardrailRule } from '../basics/rejection';
export * from '../edits/types';
export * from '../git/types';
export * from '../verifier/types';
export * from '../tools/types';

export { editFormats, getEditFormat } from '../edits/formats';
export { defaultEditPolicy, DEFAULT_TEST_PATTERNS, DEFAULT_MAX_FILE_BYTES } from '../edits/policy';
export { applyEditSet } from '../edits/applyEditSet';
export { createWorkspaceReader, createMemoryReader } from '../edits/reader';
export { WholeFileProposalSchema, type WholeFileProposal } from '../edits/wholeFile';
export { UnifiedDiffProposalSchema, type UnifiedDiffProposal } from '../edits/unifiedDiff';
export { SearchReplaceProposalSchema, type SearchReplaceProposal } from '../edits/searchReplace';
export type { EditRejectionData } from '../basics/rejection';

export { createGitFacade, type GitFacadeOptions, type LatheGitFacade } from '../git/gitFacade';
export { formatCommitMessage, parseCommitMessage, LATHE_AUTHOR } from '../git/commitMessage';
export { runWorkspaceSetup } from '../setup/worktreeSetup';
export { chooseWorktreeRoot, hasDotSegment, WORKTREE_ROOT_ENV } from '../git/worktreeRoot';

export { verify, VERIFY_DEFAULTS } from '../verifier/verify';
export { detectTestCommand, detectionLabel } from '../verifier/detect';
export { probeSandbox } from '../verifier/sandbox';
export { truncateReport, lastLines } from '../basics/outputText';
export { markArtifactsRetained, releaseRetainedArtifacts, pruneArtifacts, RETENTION } from '../verifier/artifacts';

export { createReadOnlyTools } from '../tools/readOnlyTools';
export {
  DEFAULT_SHELL_ALLOWLIST,
  checkShellCommand,
  runShellCommand,
  type ShellAllowRule,
  type ShellCheck,
  type ShellOptions,
} from '../tools/shell';
