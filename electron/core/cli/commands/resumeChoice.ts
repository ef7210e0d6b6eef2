import fs from 'node:fs';
import path from 'node:path';
import { isLatheError, LatheError } from '../../../../shared/errors';
import { hashGoal, RunStore } from '../../engine/runStore';
import { listRuns } from '../../runs/listRuns';
import { UsageError } from '../command';

/**
 * Seed 003's `--resume` takes an optional RUN_ID: a bare `--resume` (last, or before another flag)
 * becomes `--resume=`, which the parser reads as "the latest resumable run".
 */
export function normalizeResumeArgs(args: string[]): string[] {
  return args.map((arg, index) =>
    arg === '--resume' && (index === args.length - 1 || (args[index + 1] ?? '').startsWith('-')) ? '--resume=' : arg,
  );
}

export interface ResumeFlags {
  resume?: string;
  'no-resume'?: boolean;
  goal?: string;
  'goal-file'?: string;
  spec?: string;
  goals?: string;
  'max-retries'?: string;
}

export type ResumeChoice = { kind: 'fresh' } | { kind: 'resume'; runId: string; goal: string | undefined };

/** The goal text given on the command line, if any: `--goal`, or the file of `--goal-file` / `--spec`. */
export function givenGoal(flags: ResumeFlags, cwd: string): string | undefined {
  if (flags.goal !== undefined) return flags.goal;
  const file = flags['goal-file'] ?? flags.spec;
  if (file === undefined) return undefined;
  const full = path.resolve(cwd, file);
  if (!fs.existsSync(full))
    throw new UsageError(`${flags.spec !== undefined ? '--spec' : '--goal-file'}: no file ${full}`);
  return fs.readFileSync(full, 'utf8').trim();
}

/** The newest run of the repository that a resume can continue (stopped, crashed or waiting at a gate). */
export async function latestResumable(repoRoot: string): Promise<string | null> {
  // A run that cannot be read may be the newest: stop there rather than resume an older one.
  for (const run of await listRuns(repoRoot, { unreadable: 'throw' })) {
    try {
      if (RunStore.readState(repoRoot, run.runId).phase !== 'finished') return run.runId;
    } catch (error) {
      // A run whose state this version cannot use is not one to resume.
      if (isLatheError(error, 'FILE_UNREADABLE')) throw error;
    }
  }
  return null;
}

/**
 * Seed 003 steps 1 and 4: `--no-resume` forces a fresh run; `--resume [RUN_ID]` continues one, and a goal
 * given with it must be the run's own (spec_hash) — a changed one stops here, before anything is touched.
 */
export async function resumeChoice(repoRoot: string, flags: ResumeFlags, cwd: string): Promise<ResumeChoice> {
  if (flags.resume === undefined) return { kind: 'fresh' };
  if (flags['no-resume']) throw new UsageError('--resume and --no-resume contradict each other: give one');
  if (flags.goals !== undefined) throw new UsageError('--goals starts new runs; it cannot be combined with --resume');
  if (flags['max-retries'] !== undefined)
    throw new UsageError('--max-retries is fixed when a run starts; a resumed run keeps its own');
  const runId = flags.resume === '' ? await latestResumable(repoRoot) : flags.resume;
  if (runId === null)
    throw new LatheError('RUN_NOT_FOUND', `no run of ${repoRoot} can be resumed: start one with --goal or --spec`);
  const goal = givenGoal(flags, cwd);
  if (goal !== undefined) {
    const saved = RunStore.readState(repoRoot, runId);
    if (hashGoal(goal) !== saved.goal_hash) {
      throw new LatheError(
        'GOAL_CHANGED',
        `run ${runId} was started with a different goal (spec_hash ${saved.goal_hash.slice(0, 19)}…): pass --no-resume instead of --resume to start a fresh run with this one`,
        {
          run_id: runId,
        },
      );
    }
  }
  return { kind: 'resume', runId, goal };
}

/** `--max-retries N` (seed 003): 1 generation + N patches. */
export function maxRetriesAttempts(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const retries = Number(value);
  if (!Number.isInteger(retries) || retries < 0 || retries > 99)
    throw new UsageError('--max-retries must be a whole number from 0 to 99');
  return retries + 1;
}
