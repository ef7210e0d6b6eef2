/** One call's cancellation: the caller's AbortSignal and the per-call timeout, told apart afterwards. */
export interface CallSignal {
  signal: AbortSignal;
  /** Why the call was stopped, or null while it runs. */
  stoppedBy(): 'aborted' | 'timeout' | null;
  /** Starts the timeout clock (model load is excluded, so providers start it when ready). */
  startTimer(): void;
  dispose(): void;
}

export function createCallSignal(callerSignal: AbortSignal | undefined, timeoutMs: number | undefined): CallSignal {
  const controller = new AbortController();
  let reason: 'aborted' | 'timeout' | null = null;
  let timer: NodeJS.Timeout | undefined;
  const onAbort = () => {
    if (reason === null) reason = 'aborted';
    controller.abort(callerSignal?.reason);
  };
  if (callerSignal?.aborted) onAbort();
  else callerSignal?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    stoppedBy: () => reason,
    startTimer() {
      if (timer !== undefined || timeoutMs === undefined || controller.signal.aborted) return;
      timer = setTimeout(
        () => {
          if (reason === null) reason = 'timeout';
          controller.abort(new Error(`timed out after ${timeoutMs} ms`));
        },
        Math.max(0, timeoutMs),
      );
    },
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onAbort);
    },
  };
}

/** Resolves after `ms`, or rejects as soon as `signal` aborts. */
export function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('aborted'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Waits for `promise` but gives up (rejecting) when `signal` aborts; the promise itself keeps running. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
