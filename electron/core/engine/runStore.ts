import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { PendingEvent } from '../../../shared/engine/runEvents';
import { RunStateSchema, type RunState } from '../../../shared/engine/runState';
import { LatheError } from '../../../shared/errors';
import { writeFileAtomic } from '../basics/atomicWrite';
import { diskFull, isDiskFull, isMissing, unreadable } from '../fsErrors';

import { RunLogEventSchema, type RunLogEvent } from '../../../shared/schemas/run';

/** Test hook: SIGKILL this process right after the Nth log line is written (crash tests). */
const KILL_AT_EVENT = Number(process.env.LATHE_TEST_KILL_AT_EVENT ?? 0);
/** Test hook, `N:SIGINT` or `N:SIGTERM`: the signal a person's Ctrl-C sends, right after the Nth log line (interruption tests). */
const SIGNAL_AT_EVENT = /^(\d+):(SIGINT|SIGTERM)$/.exec(process.env.LATHE_TEST_SIGNAL_AT_EVENT ?? '');
/** Test hook, `N:FOLDER`: right after the Nth log line, fill the disk holding FOLDER to the last byte (disk-full tests). */
const FILL_DISK_AT_EVENT = /^(\d+):(\/.+)$/.exec(process.env.LATHE_TEST_FILL_DISK_AT_EVENT ?? '');

/** The run folder's reserve of free space (`RunStore.reserveSpace`). */
const RESERVE_FILE = 'disk-reserve';
const RESERVE_BYTES = 256 * 1024;

export function runsDir(repoRoot: string): string {
  return path.join(repoRoot, '.lathe', 'runs');
}

export function runDir(repoRoot: string, runId: string): string {
  return path.join(runsDir(repoRoot), runId);
}

/**
 * seed 003's run_id: the UTC start time, `YYYYMMDDTHHMMSSZ`, with a suffix when that second is taken:
 * by another run's folder, or by a branch the id would collide with (`taken`).
 */
export function newRunId(repoRoot: string, now: Date, taken: (runId: string) => boolean = () => false): string {
  const base = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
  let candidate = base;
  for (let suffix = 2; fs.existsSync(runDir(repoRoot, candidate)) || taken(candidate); suffix++)
    candidate = `${base}-${suffix}`;
  return candidate;
}

/** Lathe writes its run folder and a branch: a read-only repository is refused before anything starts. */
export function ensureWritableRepo(repoRoot: string): void {
  const probe = path.join(repoRoot, '.lathe', `.write-probe-${process.pid}`);
  try {
    fs.mkdirSync(path.dirname(probe), { recursive: true });
    fs.writeFileSync(probe, '');
    fs.rmSync(probe);
  } catch (error) {
    if (isDiskFull(error)) throw diskFull(error, path.dirname(probe));
    const code = (error as NodeJS.ErrnoException).code ?? 'EACCES';
    throw new LatheError(
      'REPO_READ_ONLY',
      `the repository ${repoRoot} is not writable (${code}): Lathe keeps its run folder in .lathe/ and commits to a branch of its own; make the folder writable or work on a copy`,
      { repo: repoRoot, code },
    );
  }
}

export function hashGoal(goal: string): string {
  return `sha256:${crypto.createHash('sha256').update(goal, 'utf8').digest('hex')}`;
}

/**
 * `.lathe/runs/<run_id>/`: `log.jsonl` is append-only, one event a line, flushed per event and never
 * rewritten; `state.json` is replaced atomically (temp file + rename) after every transition.
 */
export class RunStore {
  private seq: number;
  /** Agent calls logged so far (orphaned ones too): the next call's number never repeats one in the log. */
  private calls = 0;

  private constructor(
    readonly dir: string,
    readonly runId: string,
    lastSeq: number,
    private readonly onAppend: (event: RunLogEvent) => void,
  ) {
    this.seq = lastSeq;
  }

  /** The number of the agent call about to be logged: 1, 2, … across resumes (`calls/<n>.json`). */
  nextCall(): number {
    this.calls += 1;
    return this.calls;
  }

  static create(repoRoot: string, runId: string, onAppend: (event: RunLogEvent) => void = () => {}): RunStore {
    const dir = runDir(repoRoot, runId);
    try {
      fs.mkdirSync(dir, { recursive: true });
      ensureExcluded(repoRoot);
      const store = new RunStore(dir, runId, 0, onAppend);
      store.reserveSpace();
      return store;
    } catch (error) {
      if (isDiskFull(error)) throw diskFull(error, dir);
      throw error;
    }
  }

  /** A run's saved state alone, for readers (the window): no log repair, no store to append with. */
  static readState(repoRoot: string, runId: string): RunState {
    const statePath = path.join(runDir(repoRoot, runId), 'state.json');
    let text: string;
    try {
      text = fs.readFileSync(statePath, 'utf8');
    } catch (error) {
      if (isMissing(error)) throw new LatheError('RUN_NOT_FOUND', `no run ${runId} in ${repoRoot}`, { run_id: runId });
      throw unreadable(statePath, error);
    }
    const parsed = RunStateSchema.safeParse(JSON.parse(text));
    if (!parsed.success)
      throw new LatheError(
        'RUN_STATE_INVALID',
        `state.json of run ${runId} is not readable: ${parsed.error.issues[0]?.message ?? ''}`,
      );
    return parsed.data;
  }

  /** Reopens a run for resume; a torn last line (killed mid-write) is cut, never kept half-written. */
  static open(
    repoRoot: string,
    runId: string,
    onAppend: (event: RunLogEvent) => void = () => {},
    options: { reserve?: boolean } = {},
  ): { store: RunStore; state: RunState; events: RunLogEvent[] } {
    const dir = runDir(repoRoot, runId);
    const state = RunStore.readState(repoRoot, runId);
    const events = repairAndReadLog(path.join(dir, 'log.jsonl'));
    const lastSeq = Math.max(state.log_seq, events.at(-1)?.seq ?? 0);
    const store = new RunStore(dir, runId, lastSeq, onAppend);
    store.calls = events.filter((event) => event.type === 'agent_call').length;
    // A run driven again (a resume) sets its reserve aside again; on a disk still nearly full it goes on without.
    if (options.reserve === true) store.reserveSpace({ optional: true });
    return { store, state, events };
  }

  /**
   * A few hundred KiB set aside in the run folder: when the disk fills up (a suite, a large commit,
   * another program), deleting it leaves room to record the stop (`releaseReserve`) — a run that
   * cannot even say it stopped would stay listed as running.
   */
  reserveSpace(options: { optional?: boolean } = {}): void {
    const file = path.join(this.dir, RESERVE_FILE);
    try {
      if (fs.statSync(file, { throwIfNoEntry: false })?.size === RESERVE_BYTES) return;
      writeFileAtomic(file, Buffer.alloc(RESERVE_BYTES), { durable: false });
    } catch (error) {
      if (!(options.optional && isDiskFull(error))) throw error;
    }
  }

  /** Frees the reserve (when the disk is full, and when the session ends); true when there was one to free. */
  releaseReserve(): boolean {
    const file = path.join(this.dir, RESERVE_FILE);
    const existed = fs.existsSync(file);
    fs.rmSync(file, { force: true });
    return existed;
  }

  get lastSeq(): number {
    return this.seq;
  }

  /** Writes the event and tells the listeners, unless `announce` is false (then call `announce` later). */
  append(pending: PendingEvent, now = new Date(), options: { announce?: boolean } = {}): RunLogEvent {
    const event: RunLogEvent = {
      ts: now.toISOString(),
      seq: this.seq + 1,
      run_id: this.runId,
      role: pending.role,
      type: pending.type,
      data: pending.data,
    };
    const logFile = path.join(this.dir, 'log.jsonl');
    try {
      fs.appendFileSync(logFile, `${JSON.stringify(event)}\n`);
    } catch (error) {
      // A line cut short by a full disk is taken back: the log never holds half an event.
      cutTornTail(logFile);
      if (isDiskFull(error)) throw diskFull(error, this.dir);
      throw error;
    }
    this.seq = event.seq;
    if (KILL_AT_EVENT > 0 && event.seq === KILL_AT_EVENT) process.kill(process.pid, 'SIGKILL');
    if (SIGNAL_AT_EVENT && event.seq === Number(SIGNAL_AT_EVENT[1]))
      process.kill(process.pid, SIGNAL_AT_EVENT[2] as NodeJS.Signals);
    if (FILL_DISK_AT_EVENT && event.seq === Number(FILL_DISK_AT_EVENT[1])) fillDisk(FILL_DISK_AT_EVENT[2] as string);
    if (options.announce !== false) this.onAppend(event);
    return event;
  }

  announce(event: RunLogEvent): void {
    this.onAppend(event);
  }

  /**
   * Atomic always (a killed process leaves the old or the new state, never a torn one); flushed to the
   * disk only where the run stops or waits. An fsync per transition cost more than the rest of the
   * engine's bookkeeping on a busy disk, and bought little: the git objects a transition refers to are
   * not fsynced either (decision 57).
   */
  saveState(state: RunState): void {
    try {
      writeFileAtomic(path.join(this.dir, 'state.json'), `${JSON.stringify(state, null, 2)}\n`, {
        durable: state.status !== 'running',
      });
    } catch (error) {
      if (isDiskFull(error)) throw diskFull(error, this.dir);
      throw error;
    }
  }

  /** `plan_0001.json`, … — one snapshot per plan, written once. */
  savePlanSnapshot(planId: string, plan: unknown): void {
    const file = path.join(this.dir, `${planId}.json`);
    if (!fs.existsSync(file)) writeFileAtomic(file, `${JSON.stringify(plan, null, 2)}\n`);
  }

  writeFile(name: string, content: string): string {
    const file = path.join(this.dir, name);
    writeFileAtomic(file, content);
    return file;
  }
}

/** The disk-full test hook: writes `lathe-test-filler` in `folder` until the disk takes no more, in ever smaller pieces. */
function fillDisk(folder: string): void {
  const handle = fs.openSync(path.join(folder, 'lathe-test-filler'), 'a');
  try {
    for (const size of [1 << 20, 1 << 12, 1]) {
      const chunk = Buffer.alloc(size, 0x2e);
      try {
        for (;;) fs.writeSync(handle, chunk);
      } catch (error) {
        if (!isDiskFull(error)) throw error;
      }
    }
  } finally {
    fs.closeSync(handle);
  }
}

/** Cuts a last line that has no newline (a write cut short): what `open` also does after a kill. */
function cutTornTail(file: string): void {
  const text = fs.existsSync(file) ? fs.readFileSync(file) : null;
  if (!text || text.length === 0 || text[text.length - 1] === 0x0a) return;
  fs.truncateSync(file, text.lastIndexOf(0x0a) + 1);
}

export function readLog(file: string): RunLogEvent[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => RunLogEventSchema.parse(JSON.parse(line)));
}

function repairAndReadLog(file: string): RunLogEvent[] {
  if (!fs.existsSync(file)) return [];
  cutTornTail(file);
  return readLog(file);
}

/** The run store is never committed: `.lathe/` goes into `.git/info/exclude`. */
function ensureExcluded(repoRoot: string): void {
  const gitDir = path.join(repoRoot, '.git');
  if (!fs.existsSync(gitDir) || !fs.statSync(gitDir).isDirectory()) return;
  const exclude = path.join(gitDir, 'info', 'exclude');
  fs.mkdirSync(path.dirname(exclude), { recursive: true });
  const current = fs.existsSync(exclude) ? fs.readFileSync(exclude, 'utf8') : '';
  if (current.split('\n').some((line) => line.trim() === '.lathe/' || line.trim() === '.lathe')) return;
  fs.appendFileSync(exclude, `${current === '' || current.endsWith('\n') ? '' : '\n'}.lathe/\n`);
}
