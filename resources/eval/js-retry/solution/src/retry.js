// Retrying of flaky async calls (see README).
import { sleep } from './sleep.js';

/** Calls fn(attempt) until it succeeds, up to `retries` extra attempts with `delayMs` between them. */
export async function retry(fn, options = {}) {
  const { retries = 2, delayMs = 0, shouldRetry = () => true } = options;
  if (!Number.isInteger(retries) || retries < 0) throw new RangeError(`retries must be a whole number of 0 or more, not ${retries}`);
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (error) {
      if (attempt > retries || !shouldRetry(error)) throw error;
      await sleep(delayMs);
    }
  }
}
