/**
 * Mines and validates corpus tasks from one repository's history (docs/eval.md, "Growing the corpus"):
 *
 *   npx tsx scripts/corpus/mine.ts --git DIR --repo NAME --upstream URL --license MIT \
 *     --language javascript --runner jest --setup "npm install ..." --test "npx jest" \
 *     --report "npx jest --json" --out /work/corpus-wide [--branch main] [--want 6] [--scan 40]
 *     [--require package.json:jest] [--source-pattern '^lib/'] [--since 2019-01-01] [--notes TEXT]
 *     [--only SHA-PREFIX]... [--report-grades: the report command's exit code stands for the test's]
 *     [--fix SHA-PREFIX]... (a commit read and judged a bug fix whose message does not say so: taken
 *     like --only, without the message rule; every other rule and check still applies)
 *
 * DIR is a git directory or a bundle. Writes <repo>.bundle (the branch, full history),
 * <repo>.LICENSE and materialize.sh (copied from the shared corpus) into --out and merges the
 * validated tasks into its tasks.json (a task of the same id is replaced).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { goalOf, selectCandidate, type Candidate } from './candidates';
import { git, readHistory } from './gitHistory';
import { licenseText } from './licenseFile';
import { derivedNotes, MinedTaskSchema, orderedTask, type MinedTask } from './minedTask';
import { reportCommandProblem, RUNNERS, type RunnerName } from './runnerReports';
import { createCheckout, endToEnd, measureCandidate, type RunSpec } from './validate';

const { values: args } = parseArgs({
  options: {
    git: { type: 'string' },
    repo: { type: 'string' },
    upstream: { type: 'string' },
    license: { type: 'string' },
    language: { type: 'string' },
    runner: { type: 'string' },
    setup: { type: 'string', default: '' },
    test: { type: 'string' },
    report: { type: 'string' },
    out: { type: 'string' },
    branch: { type: 'string' },
    want: { type: 'string', default: '6' },
    scan: { type: 'string', default: '40' },
    require: { type: 'string', multiple: true, default: [] },
    'source-pattern': { type: 'string' },
    since: { type: 'string' },
    notes: { type: 'string', default: '' },
    'materialize-from': { type: 'string', default: '/work/shared/corpus/materialize.sh' },
    timeout: { type: 'string', default: '600' },
    only: { type: 'string', multiple: true, default: [] },
    fix: { type: 'string', multiple: true, default: [] },
    'report-grades': { type: 'boolean', default: false },
  },
});

function need(name: keyof typeof args): string {
  const value = args[name];
  if (typeof value !== 'string' || value === '') {
    process.stderr.write(`mine: --${name} is required (see the usage at the top of scripts/corpus/mine.ts)\n`);
    process.exit(2);
  }
  return value;
}
const log = (line: string) => process.stdout.write(`${line}\n`);

const repo = need('repo');
const outDir = path.resolve(need('out'));
const runner = need('runner') as RunnerName;
if (!RUNNERS.includes(runner)) {
  process.stderr.write(`mine: --runner must be one of ${RUNNERS.join(', ')}\n`);
  process.exit(2);
}
const reportProblem = [args.report ?? need('test'), need('test')]
  .map((command) => reportCommandProblem(runner, command))
  .find((problem) => problem !== null);
if (reportProblem) {
  process.stderr.write(`mine: ${reportProblem}\n`);
  process.exit(2);
}
const spec: RunSpec = {
  runner,
  setup: args.setup ?? '',
  test: need('test'),
  report: args.report ?? need('test'),
  reportGrades: args['report-grades'] ?? false,
  timeoutSeconds: Number(args.timeout),
};
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), `mine-${repo}-`));

// A bundle is cloned once so history and bundle creation read a plain git directory.
let gitDir = path.resolve(need('git'));
if (fs.statSync(gitDir).isFile()) {
  const bare = path.join(workDir, 'source.git');
  if (!git('', ['clone', '-q', '--bare', gitDir, bare], workDir).ok) throw new Error(`cannot clone bundle ${gitDir}`);
  gitDir = bare;
}
const branch = args.branch ?? git(gitDir, ['symbolic-ref', '--short', 'HEAD']).stdout.trim();

function fileAt(commit: string, file: string): string | null {
  const shown = git(gitDir, ['show', `${commit}:${file}`]);
  return shown.ok ? shown.stdout : null;
}

const requirements = (args.require ?? []).map((rule) => {
  const at = rule.indexOf(':');
  return { file: rule.slice(0, at), text: rule.slice(at + 1) };
});
const sourcePattern = args['source-pattern'] ? new RegExp(args['source-pattern']) : undefined;
const candidates: Candidate[] = [];
for (const commit of readHistory(gitDir, branch)) {
  if (args.since && commit.date < args.since) break;
  const chosen = [...(args.only ?? []), ...(args.fix ?? [])];
  if (chosen.length > 0 && !chosen.some((prefix) => commit.sha.startsWith(prefix))) continue;
  const selection = selectCandidate(commit, {
    sourcePattern,
    messageVetted: (args.fix ?? []).some((prefix) => commit.sha.startsWith(prefix)),
  });
  if (!selection.ok) continue;
  if (!requirements.every((rule) => fileAt(commit.sha, rule.file)?.includes(rule.text))) continue;
  candidates.push(selection.candidate);
}
log(`${repo}: ${candidates.length} candidates on ${branch}; trying up to ${args.scan}, keeping up to ${args.want}`);

fs.mkdirSync(outDir, { recursive: true });
const bundle = `${repo}.bundle`;
const bundled = git(gitDir, ['bundle', 'create', path.join(outDir, bundle), branch]);
if (!bundled.ok) throw new Error(`git bundle: ${bundled.stderr.trim()}`);
const license = licenseText((name) => fileAt(branch, name));
if (license) fs.writeFileSync(path.join(outDir, `${repo}.LICENSE`), license);
else log(`${repo}: no license file found on ${branch}; add ${repo}.LICENSE by hand`);
if (!fs.existsSync(path.join(outDir, 'materialize.sh')))
  fs.copyFileSync(need('materialize-from'), path.join(outDir, 'materialize.sh'));
fs.chmodSync(path.join(outDir, 'materialize.sh'), 0o755);

const checkout = createCheckout(gitDir, path.join(workDir, 'checkout'));
const measured: MinedTask[] = [];
for (const candidate of candidates.slice(0, Number(args.scan))) {
  if (measured.length >= Number(args.want)) break;
  const { commit } = candidate;
  const result = measureCandidate(checkout, candidate, spec);
  if (!result.ok) {
    log(`  skip ${commit.sha.slice(0, 7)} ${commit.subject.slice(0, 60)}: ${result.reason.slice(0, 300)}`);
    continue;
  }
  const parent = commit.parents[0] ?? '';
  const goldPatch = git(gitDir, ['diff', '--full-index', parent, commit.sha, '--', ...candidate.goldFiles]).stdout;
  const task = MinedTaskSchema.parse({
    id: `${repo}-${commit.sha.slice(0, 7)}`,
    repo,
    upstream: need('upstream'),
    license: need('license'),
    language: need('language'),
    runner,
    bundle,
    fix_commit: commit.sha,
    parent_commit: parent,
    commit_date: commit.date,
    revert_files: candidate.revertFiles,
    gold_files: candidate.goldFiles,
    goal: goalOf(commit),
    fail_to_pass: result.value.failToPass,
    fail_to_pass_count: result.value.failToPass.length,
    tests_passing_at_fix: result.value.passingAtFix,
    setup_command: spec.setup,
    test_command: spec.test,
    runtime_seconds: result.value.runtimeSeconds,
    gold_patch: goldPatch,
    notes: derivedNotes(
      { fail_to_pass_count: result.value.failToPass.length, tests_passing_at_fix: result.value.passingAtFix },
      args.notes ?? '',
    ),
  });
  log(
    `  measured ${task.id}: ${task.fail_to_pass_count} fail-to-pass, ${task.tests_passing_at_fix} passing at the fix, ${task.runtime_seconds} s`,
  );
  measured.push(task);
}

// materialize.sh reads tasks.json, so the end-to-end check runs against a staging corpus.
const stage = path.join(workDir, 'stage');
fs.mkdirSync(stage);
fs.symlinkSync(path.join(outDir, bundle), path.join(stage, bundle));
fs.copyFileSync(path.join(outDir, 'materialize.sh'), path.join(stage, 'materialize.sh'));
fs.writeFileSync(path.join(stage, 'tasks.json'), JSON.stringify(measured.map(orderedTask), null, 1));
const validated = measured.filter((task) => {
  const checked = endToEnd(stage, task.id, task.gold_patch, spec, workDir);
  log(`  end to end ${task.id}: ${checked.ok ? 'ok' : checked.reason.slice(0, 300)}`);
  return checked.ok;
});

// Several miners may share one corpus: the merge runs under a lock directory.
const tasksFile = path.join(outDir, 'tasks.json');
const lock = `${tasksFile}.lock`;
for (let tries = 0; ; tries += 1) {
  try {
    fs.mkdirSync(lock);
    break;
  } catch (error) {
    if (tries > 600 || (error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
  }
}
let merged: { id: string }[];
try {
  const existing = fs.existsSync(tasksFile) ? (JSON.parse(fs.readFileSync(tasksFile, 'utf8')) as { id: string }[]) : [];
  merged = [...existing.filter((task) => !validated.some((v) => v.id === task.id)), ...validated.map(orderedTask)] as {
    id: string;
  }[];
  fs.writeFileSync(`${tasksFile}.tmp`, `${JSON.stringify(merged, null, 1)}\n`);
  fs.renameSync(`${tasksFile}.tmp`, tasksFile);
} finally {
  fs.rmdirSync(lock);
}
log(`${repo}: ${validated.length} validated tasks written to ${tasksFile} (${merged.length} tasks in all)`);
fs.rmSync(workDir, { recursive: true, force: true });
