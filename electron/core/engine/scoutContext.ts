import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ScoutReportSchema, type ScoutReport } from '../../../shared/schemas/agents/scout';
import type { RunState } from '../../../shared/engine/runState';
import { LatheError } from '../../../shared/errors';
import type { ScoutSandbox } from '../agents/scoutLoop';
import type { EngineDeps } from './engineDeps';
import type { RunStore } from './runStore';
import { workDirNote } from './verification';
import { isMissing } from '../fsErrors';

const list = (title: string, items: string[]) =>
  items.length === 0 ? [] : [`## ${title}`, ...items.map((item) => `- ${item}`), ''];

/** One Scout answer as recorded beside its snapshot, so a later snapshot of the round can merge it. */
const RecordedAnswerSchema = z.object({
  scout: z.string(),
  question: z.string(),
  report: ScoutReportSchema,
  transcript: z.array(z.string()),
});
type RecordedAnswer = z.infer<typeof RecordedAnswerSchema>;

const SECTIONS = [
  ['Repo map', 'repo_map'],
  ['Target files', 'target_files'],
  ['APIs', 'apis'],
  ['Constraints', 'constraints'],
  ['Prior art', 'prior_art'],
  ['Verification tips', 'verification_tips'],
  ['Hypotheses', 'hypotheses'],
] as const satisfies readonly (readonly [string, keyof ScoutReport])[];

/**
 * Seed 004's context snapshot: repo map, target files, APIs, constraints, prior art, verification tips,
 * hypotheses — merged over every Scout answer of the round, so the Editor sees Scout A's code map and
 * Scout B's test notes together (the newest answer alone lost the others).
 */
export function renderContext(number: number, answers: readonly RecordedAnswer[]): string {
  const scouts = [...new Set(answers.map((answer) => answer.scout))].join(', ');
  const merged = (key: (typeof SECTIONS)[number][1]) => [
    ...new Set(answers.flatMap((answer) => answer.report[key] as string[])),
  ];
  return [
    `# Context ${String(number).padStart(3, '0')} — Scout${answers.length > 1 ? 's' : ''} ${scouts} (${answers.length} report${answers.length === 1 ? '' : 's'})`,
    '',
    ...answers.flatMap((answer) => [`## Scout ${answer.scout}: ${answer.question}`, answer.report.summary, '']),
    ...SECTIONS.flatMap(([title, key]) => list(title, merged(key))),
    ...list(
      'Tools used',
      answers.flatMap((answer) => answer.transcript.map((step) => `${answer.scout}: ${step}`)),
    ),
  ].join('\n');
}

function readAnswer(store: RunStore, contextFile: string): RecordedAnswer | null {
  try {
    return RecordedAnswerSchema.parse(
      JSON.parse(fs.readFileSync(path.join(store.dir, contextFile.replace(/\.md$/, '.json')), 'utf8')),
    );
  } catch (error) {
    // A snapshot recorded before answers were kept beside it: it is still in its own .md file.
    if (isMissing(error)) return null;
    throw error;
  }
}

/**
 * Writes `context_###.md` — the round's snapshot so far, this answer included — and points
 * `context_latest.md` at it; numbered by the state, so a redo overwrites the same file.
 */
export function recordContext(
  store: RunStore,
  state: RunState,
  scout: string,
  question: string,
  report: ScoutReport,
  transcript: string[],
): string {
  const number = state.contexts.length + 1;
  const name = `context_${String(number).padStart(3, '0')}.md`;
  const answer: RecordedAnswer = { scout, question, report, transcript };
  const earlier = state.contexts
    .slice(state.contexts.length - (state.scouting?.next ?? 0))
    .map((file) => readAnswer(store, file))
    .filter((entry): entry is RecordedAnswer => entry !== null);
  const text = renderContext(number, [...earlier, answer]);
  store.writeFile(name.replace(/\.md$/, '.json'), `${JSON.stringify(answer, null, 2)}\n`);
  store.writeFile(name, text);
  store.writeFile('context_latest.md', `<!-- latest: ${name} -->\n${text}`);
  return name;
}

/** Scout B reads a run as the other models do: the failure-focused excerpt (it starts with the status and counts). */
function summarizeVerify(result: Awaited<ReturnType<EngineDeps['verify']>>): string {
  const note = workDirNote(result);
  const text =
    result.excerpt ||
    `${result.status}, exit ${result.exitCode ?? 'none'}${result.reason ? `, ${result.reason}` : ''}\n${result.tail.split('\n').slice(-60).join('\n')}`;
  return `${text}${note ? `\n\n${note}` : ''}`;
}

/** Scout B's commands: the allowlist first (seed 001's ShellTool), then the Verifier's read-only sandbox. */
export function scoutSandbox(
  deps: EngineDeps,
  state: RunState,
  artifactRoot: string,
  allowed: (argv: string[]) => { allowed: true } | { allowed: false; reason: string },
  signal: AbortSignal,
): ScoutSandbox {
  const workspace = state.workspace;
  const run = async (argv: string[], buildArgv?: string[]) => {
    if (!workspace) throw new LatheError('NO_WORKSPACE', 'the run has no workspace');
    return summarizeVerify(
      await deps.verify({
        workDir: workspace.workDir,
        argv,
        buildArgv,
        timeoutMs: state.config.limits.test_timeout_ms,
        artifactRoot,
        commit: state.head ?? undefined,
        isolation: 'auto',
        readPaths: state.config.sandbox.read_paths,
        signal,
      }),
    );
  };
  return {
    runTests: async () =>
      state.test_command
        ? run(state.test_command, state.config.build_command ?? undefined)
        : 'no test command is configured or detected',
    runCommand: async (argv) => {
      const verdict = allowed(argv);
      return verdict.allowed ? run(argv) : `rejected by the allowlist: ${verdict.reason}`;
    },
  };
}
