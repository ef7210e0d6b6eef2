import type { ScoutReport } from '../../../shared/schemas/agents/scout';
import type { RunState } from '../../../shared/engine/runState';
import { LatheError } from '../../../shared/errors';
import type { ScoutSandbox } from '../agents/scoutLoop';
import type { EngineDeps } from './engineDeps';
import type { RunStore } from './runStore';

const list = (title: string, items: string[]) => (items.length === 0 ? [] : [`## ${title}`, ...items.map((item) => `- ${item}`), '']);

/** Seed 004's context snapshot: repo map, target files, APIs, constraints, prior art, verification tips, hypotheses. */
export function renderContext(number: number, scout: string, question: string, report: ScoutReport, transcript: string[]): string {
  return [
    `# Context ${String(number).padStart(3, '0')} — Scout ${scout}`,
    '',
    `Question: ${question}`,
    '',
    report.summary,
    '',
    ...list('Repo map', report.repo_map),
    ...list('Target files', report.target_files),
    ...list('APIs', report.apis),
    ...list('Constraints', report.constraints),
    ...list('Prior art', report.prior_art),
    ...list('Verification tips', report.verification_tips),
    ...list('Hypotheses', report.hypotheses),
    ...list('Tools used', transcript),
  ].join('\n');
}

/** Writes `context_###.md` and points `context_latest.md` at it; numbered by the state, so a redo overwrites the same file. */
export function recordContext(store: RunStore, state: RunState, scout: string, question: string, report: ScoutReport, transcript: string[]): string {
  const number = state.contexts.length + 1;
  const name = `context_${String(number).padStart(3, '0')}.md`;
  const text = renderContext(number, scout, question, report, transcript);
  store.writeFile(name, text);
  store.writeFile('context_latest.md', `<!-- latest: ${name} -->\n${text}`);
  return name;
}

function summarizeVerify(result: Awaited<ReturnType<EngineDeps['verify']>>): string {
  const counts = result.counts ? ` (${result.counts.passed} passed, ${result.counts.failed} failed)` : '';
  const failure = result.firstFailure ? `\nfirst failure: ${result.firstFailure.testId}: ${result.firstFailure.message}` : '';
  return `${result.status}${counts}, exit ${result.exitCode ?? 'none'}${result.reason ? `, ${result.reason}` : ''}${failure}\n${result.tail.split('\n').slice(-60).join('\n')}`;
}

/** Scout B's commands: the allowlist first (seed 001's ShellTool), then the Verifier's read-only sandbox. */
export function scoutSandbox(deps: EngineDeps, state: RunState, artifactRoot: string, allowed: (argv: string[]) => { allowed: true } | { allowed: false; reason: string }, signal: AbortSignal): ScoutSandbox {
  const workspace = state.workspace;
  const run = async (argv: string[]) => {
    if (!workspace) throw new LatheError('NO_WORKSPACE', 'the run has no workspace');
    return summarizeVerify(await deps.verify({ workDir: workspace.workDir, argv, timeoutMs: state.config.limits.test_timeout_ms, artifactRoot, commit: state.head ?? undefined, isolation: 'auto', signal }));
  };
  return {
    runTests: async () => (state.test_command ? run(state.test_command) : 'no test command is configured or detected'),
    runCommand: async (argv) => {
      const verdict = allowed(argv);
      return verdict.allowed ? run(argv) : `rejected by the allowlist: ${verdict.reason}`;
    },
  };
}
