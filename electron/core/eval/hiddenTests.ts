import fs from 'node:fs';
import path from 'node:path';
import { makeTemporaryCheckout } from '../verifier/checkout';
import { pickPython } from '../verifier/detectPython';
import { probeSandbox, verify } from '../workspace/index';
import type { VerifyResult } from '../workspace/index';
import { hiddenTestArgv, type EvalTask } from './taskSuite';

export interface HiddenTestRequest {
  task: EvalTask;
  /** The task repository the run worked on. */
  repoDir: string;
  /** The commit to judge: the run branch's head, or the base. */
  commit: string;
  artifactRoot: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Judges a finished run: a scratch checkout of `commit` outside the task repository, the hidden
 * tests copied in (over any file of the same path), and only those tests run through the Verifier.
 * The run is over before the hidden files exist anywhere an agent's tools could reach.
 */
export async function runHiddenTests(request: HiddenTestRequest): Promise<VerifyResult> {
  const checkout = await makeTemporaryCheckout(request.repoDir, request.commit);
  try {
    for (const relative of request.task.hiddenFiles) {
      const target = path.join(checkout.dir, relative);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, fs.readFileSync(path.join(request.task.hiddenDir, relative)));
    }
    // The scratch checkout is already a throwaway copy; bubblewrap adds no network and a read-only view.
    const sandbox = await probeSandbox();
    return await verify({
      workDir: checkout.dir,
      argv: hiddenTestArgv(request.task, pickPython(checkout.dir)),
      timeoutMs: request.timeoutMs,
      artifactRoot: request.artifactRoot,
      commit: request.commit,
      isolation: sandbox.available ? 'bwrap' : 'none',
      // A throwaway copy: a suite that builds first (tsc into build/) may write there.
      writableWorkDir: true,
      signal: request.signal,
    });
  } finally {
    await checkout.remove();
  }
}
