import { formatFaultList, parseFaultList, type FaultSettings, type Parsed } from './faultSettings';

/**
 * The oracle's fault settings ride on its model spec, after the patch file:
 * `oracle:PATCH#faults=KIND[:RATE],…;seed=N;task=ID[;feedback-check][;journal=FILE]`. On the spec, the
 * run's own record (its config, every `agent_call` event) says the model was spoiled and how.
 */
export const FAULTS_MARK = '#faults=';

const JOURNAL = 'journal=';

/** The settings as a spec suffix; `journal` goes last, so its path may hold any character. */
export function faultSpecSuffix(settings: FaultSettings): string {
  const parts = [`${FAULTS_MARK}${formatFaultList(settings.faults)}`, `seed=${settings.seed}`, `task=${settings.task}`];
  if (settings.feedbackCheck) parts.push('feedback-check');
  if (settings.journal !== null) parts.push(`${JOURNAL}${settings.journal}`);
  return parts.join(';');
}

/** Splits `PATCH#faults=…` into the patch path and its settings (null when the spec carries none). */
export function splitFaultSpec(rest: string): Parsed<{ patch: string; faults: FaultSettings | null }> {
  const at = rest.indexOf(FAULTS_MARK);
  if (at < 0) return { ok: true, value: { patch: rest, faults: null } };
  const patch = rest.slice(0, at).trim();
  let body = rest.slice(at + FAULTS_MARK.length);
  let journal: string | null = null;
  const journalAt = body.indexOf(`;${JOURNAL}`);
  if (journalAt >= 0) {
    journal = body.slice(journalAt + JOURNAL.length + 1);
    body = body.slice(0, journalAt);
    if (journal.trim() === '')
      return { ok: false, message: `'${JOURNAL}' in the oracle's fault settings names no file` };
  }
  const [list = '', ...options] = body.split(';');
  const faults = parseFaultList(list);
  if (!faults.ok) return faults;
  let seed: number | null = null;
  let task: string | null = null;
  let feedbackCheck = false;
  for (const option of options) {
    const [key = '', value] = option.split('=', 2);
    if (key === 'seed' && value !== undefined && /^\d{1,9}$/.test(value)) seed = Number(value);
    else if (key === 'task' && value !== undefined && value !== '') task = value;
    else if (key === 'feedback-check' && value === undefined) feedbackCheck = true;
    else
      return {
        ok: false,
        message: `'${option}' is not a fault setting (seed=N, task=ID, feedback-check, journal=FILE)`,
      };
  }
  if (seed === null || task === null)
    return {
      ok: false,
      message: "the oracle's fault settings need seed=N and task=ID (lathe eval --corpus … --faults writes them)",
    };
  return { ok: true, value: { patch, faults: { faults: faults.value, seed, task, feedbackCheck, journal } } };
}
