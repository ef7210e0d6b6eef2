import fs from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import git, { type ReadCommitResult } from 'isomorphic-git';
import type { RunCommitInfo, RunDiffFile, RunWorkspace } from './types';
import { parseCommitMessage } from './commitMessage';
import { countChangedLines, type LineCounts } from './lineCounts';
import { lineDiff, type LineChange } from '../../../shared/diff/lineDiff';
import { gitError } from './gitErrors';
import { encodeName } from './pathBytes';
import { resolveBranch, type RepoContext } from './repoContext';
import { diffTrees, readBlobText, treeOf, type TreeChange } from './treeObjects';

const MAX_RUN_COMMITS = 2000;

/** The run's commits from its base (exclusive) to its head, oldest first, following first parents. */
export async function runCommits(
  context: RepoContext,
  workspace: RunWorkspace,
  head: string,
): Promise<ReadCommitResult[]> {
  const out: ReadCommitResult[] = [];
  let cursor: string | undefined = head;
  while (cursor && cursor !== workspace.baseCommit) {
    if (out.length >= MAX_RUN_COMMITS)
      throw gitError('NOT_IN_RUN', 'the run branch does not lead back to its base commit', {
        branch: workspace.branch,
      });
    const result: ReadCommitResult = await git.readCommit({ ...context.iso, oid: cursor });
    out.push(result);
    cursor = result.commit.parent[0];
  }
  if (cursor !== workspace.baseCommit)
    throw gitError('NOT_IN_RUN', 'the run branch does not contain its base commit', { branch: workspace.branch });
  return out.reverse();
}

export async function runHead(context: RepoContext, workspace: RunWorkspace): Promise<string> {
  const head = await resolveBranch(context, workspace.branch);
  if (!head)
    throw gitError('RUN_BRANCH_MISSING', `the run branch ${workspace.branch} no longer exists`, {
      branch: workspace.branch,
    });
  return head;
}

type Blob = Awaited<ReturnType<typeof readBlobText>>;

/** Both versions of a changed file (null: absent on that side). */
async function readSides(
  context: RepoContext,
  change: TreeChange,
): Promise<{ before: Blob | null; after: Blob | null }> {
  return {
    before: change.before ? await readBlobText(context, change.before.oid) : null,
    after: change.after ? await readBlobText(context, change.after.oid) : null,
  };
}

/** Binary files count no lines. */
function countLines(before: Blob | null, after: Blob | null): LineCounts {
  if (before?.binary || after?.binary) return { added: 0, removed: 0 };
  return countChangedLines(before?.text ?? null, after?.text ?? null);
}

export async function listRunCommitsIn(context: RepoContext, workspace: RunWorkspace): Promise<RunCommitInfo[]> {
  const commits = await runCommits(context, workspace, await runHead(context, workspace));
  const out: RunCommitInfo[] = [];
  for (const { oid, commit } of commits) {
    const parentTree = commit.parent[0] ? await treeOf(context, commit.parent[0]) : null;
    const changes = await diffTrees(context, parentTree, commit.tree);
    const files = [];
    for (const change of changes) {
      const { before, after } = await readSides(context, change);
      files.push({ path: change.path, ...countLines(before, after) });
    }
    const parsed = parseCommitMessage(commit.message);
    out.push({ sha: oid, subject: parsed.subject, taskId: parsed.trailers['Lathe-Task'] ?? null, files });
  }
  return out;
}

/** Binary files show as a one-line placeholder: the diff view is text. */
function contentOf(blob: Blob | null): string | null {
  if (!blob) return null;
  return blob.binary ? `[binary file, ${blob.bytes} bytes]` : blob.text;
}

/** The blocks of what the diff view shows (a binary file's placeholder line included); binary files count no lines. */
function diffSides(before: Blob | null, after: Blob | null): LineCounts & { changes: LineChange[] } {
  const diff = lineDiff(contentOf(before), contentOf(after));
  return before?.binary || after?.binary ? { ...diff, added: 0, removed: 0 } : diff;
}

export async function diffRunIn(
  context: RepoContext,
  workspace: RunWorkspace,
  fromCommit?: string,
  toCommit?: string,
): Promise<RunDiffFile[]> {
  const from = fromCommit ?? workspace.baseCommit;
  const to = toCommit ?? (await runHead(context, workspace));
  const changes = await diffTrees(context, await treeOf(context, from), await treeOf(context, to));
  const out: RunDiffFile[] = [];
  for (const change of changes) {
    const { before, after } = await readSides(context, change);
    // Diffed here, not in the window: a long file's line diff would hold up its first paint.
    out.push({ path: change.path, before: contentOf(before), after: contentOf(after), ...diffSides(before, after) });
  }
  return out;
}

/**
 * The run's whole change from its base to its head (or `toCommit`: a merged run's head once its branch
 * is pruned) as one unified diff (`lathe diff`): git's own output when installed (no colour, no
 * external diff program, a/ b/ prefixes whatever the config says), else the per-file patches the
 * export writes without git.
 */
export async function runPatchIn(context: RepoContext, workspace: RunWorkspace, toCommit?: string): Promise<string> {
  const head = toCommit ?? (await runHead(context, workspace));
  if (context.native) {
    return (
      await context.git(workspace.repoRoot, [
        'diff',
        '--no-color',
        '--no-ext-diff',
        '--src-prefix=a/',
        '--dst-prefix=b/',
        workspace.baseCommit,
        head,
      ])
    ).stdout;
  }
  const changes = await diffTrees(context, await treeOf(context, workspace.baseCommit), await treeOf(context, head));
  const parts: string[] = [];
  for (const change of changes) parts.push(await filePatch(context, change));
  return parts.join('');
}

/** The run as a patch series `git am` can apply: native format-patch when installed, else written here. */
export async function exportPatchIn(
  context: RepoContext,
  workspace: RunWorkspace,
  file: string,
): Promise<{ file: string; commits: number }> {
  const head = await runHead(context, workspace);
  const commits = await runCommits(context, workspace, head);
  const target = path.resolve(file);
  await fs.promises.mkdir(path.dirname(target), { recursive: true });
  if (context.native) {
    const result = await context.git(workspace.repoRoot, [
      'format-patch',
      '--stdout',
      '--no-signature',
      '--full-index',
      `${workspace.baseCommit}..${head}`,
    ]);
    // The patch's own bytes: file contents and names that are not UTF-8 stay as git wrote them.
    await fs.promises.writeFile(target, encodeName(result.stdout));
    return { file: target, commits: commits.length };
  }
  const parts: string[] = [];
  for (const [index, { oid, commit }] of commits.entries()) {
    const parentTree = commit.parent[0] ? await treeOf(context, commit.parent[0]) : null;
    const changes = await diffTrees(context, parentTree, commit.tree);
    const [subject, ...body] = commit.message.split('\n');
    const date = new Date(commit.author.timestamp * 1000).toUTCString().replace('GMT', '+0000');
    parts.push(
      `From ${oid} Mon Sep 17 00:00:00 2001\nFrom: ${commit.author.name} <${commit.author.email}>\nDate: ${date}\n` +
        `Subject: [PATCH ${index + 1}/${commits.length}] ${subject}\n\n${body.join('\n').trim()}\n---\n`,
    );
    for (const change of changes) parts.push(await filePatch(context, change));
    parts.push('-- \n\n');
  }
  await fs.promises.writeFile(target, parts.join(''));
  return { file: target, commits: commits.length };
}

async function filePatch(context: RepoContext, change: TreeChange): Promise<string> {
  const { before, after } = await readSides(context, change);
  const header = [`diff --git a/${change.path} b/${change.path}`];
  if (!change.before && change.after) header.push(`new file mode ${change.after.mode}`);
  if (change.before && !change.after) header.push(`deleted file mode ${change.before.mode}`);
  if (change.before && change.after && change.before.mode !== change.after.mode)
    header.push(`old mode ${change.before.mode}`, `new mode ${change.after.mode}`);
  if (before?.binary || after?.binary) return `${header.join('\n')}\nBinary files differ\n`;
  const patch = createTwoFilesPatch(
    change.before ? `a/${change.path}` : '/dev/null',
    change.after ? `b/${change.path}` : '/dev/null',
    before?.text ?? '',
    after?.text ?? '',
  );
  // jsdiff starts with an "Index:"/"====" preamble that git does not write.
  const body = patch.split('\n').filter((line) => !line.startsWith('Index: ') && !/^=+$/.test(line));
  return `${header.join('\n')}\n${body.join('\n')}`;
}
