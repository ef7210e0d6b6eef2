import os from 'node:os';
import { physicalCoreCount } from '../llm/llama/cores';
import type { EngineDeps } from './engineDeps';

type Verify = EngineDeps['verify'];

/** How many Verifier runs one process lets go at once: `LATHE_VERIFY_JOBS`, else half the physical cores. */
export function verifySlots(env: NodeJS.ProcessEnv = process.env): number {
  const configured = Number(env.LATHE_VERIFY_JOBS);
  if (Number.isInteger(configured) && configured > 0) return configured;
  return Math.max(1, Math.floor(Math.min(physicalCoreCount(), os.availableParallelism()) / 2));
}

/** A counting semaphore: waiters go first come, first served. */
export class Slots {
  private busy = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  get inUse(): number {
    return this.busy;
  }

  /** Runs `task` in a slot; one stopped while it waits runs at once without one (it only winds down). */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.busy >= this.size) {
      const got = await new Promise<boolean>((resolve) => {
        if (signal?.aborted) return resolve(false);
        const waiter = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(true);
        };
        const onAbort = () => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          resolve(false);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        this.waiting.push(waiter);
      });
      if (!got) return task();
    } else this.busy++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.busy--;
    }
  }
}

let processSlots: Slots | null = null;

/**
 * The Verifier, queued process-wide: runs of one process (the window's, `lathe eval --jobs`) take
 * turns at the tests instead of running two suites on the same cores. A run stopped while it waits
 * does not wait for its turn: the Verifier sees the abort and returns at once.
 */
export function queuedVerify(verify: Verify, slots?: Slots): Verify {
  return (request) => (slots ?? (processSlots ??= new Slots(verifySlots()))).run(() => verify(request), request.signal);
}
