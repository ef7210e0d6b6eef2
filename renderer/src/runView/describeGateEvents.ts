import type { EventDescribers } from './eventText';

/** Timeline lines of the gates: opened, reviewed by the Supervisor, decided by the person, closed. */
export const GATE_EVENT_LINES: EventDescribers = {
  gate_opened: ({ data }, at) => ({ text: `${data.kind ?? '?'} gate opened (${data.mode ?? '?'})${at}`, tone: 'gate' }),
  verdict: ({ data }) => ({
    text: `supervisor, ${data.gate ?? '?'} gate: ${data.approved === true ? 'approved' : 'rejected'} · ${data.score ?? '?'}/${data.threshold ?? '?'} — ${data.feedback ?? ''}`,
    tone: data.approved === true ? 'ok' : 'fail',
  }),
  gate_pending: ({ data }, at) => ({ text: `${data.kind ?? '?'} gate waits for you${at}`, tone: 'gate' }),
  gate_decided: ({ data }) => ({
    text: `you ${data.approved === true ? 'approved' : 'rejected'} the ${data.gate ?? ''} gate${data.comment ? `: “${data.comment}”` : ''}`,
    tone: data.approved === true ? 'ok' : 'fail',
  }),
  user_edit: ({ data }) => {
    // A person's own change goes on record beside the agents': which files, and which existing tests.
    const files = Array.isArray(data.files) ? data.files.length : 0;
    const tests =
      Array.isArray(data.test_files) && data.test_files.length > 0
        ? `, changing existing tests (${data.test_files.join(', ')})`
        : '';
    return {
      text: `you edited ${files} file${files === 1 ? '' : 's'} at the ${data.gate ?? ''} gate${tests}: the tests run on your edit`,
      tone: 'gate',
    };
  },
  gate_closed: ({ data }) => ({
    text: `${data.gate ?? '?'} gate ${data.approved === true ? 'passed' : 'rejected'} by ${data.by ?? '?'}`,
    tone: data.approved === true ? 'ok' : 'fail',
  }),
  gate_unreviewed: ({ data }) => ({
    text: `${data.gate ?? 'a'} gate not reviewed (the Supervisor failed: ${data.reason ?? '?'}): waits for you`,
    tone: 'gate',
  }),
  fix_plan_verdict: ({ data }, at) => ({
    text: `supervisor, fix plan${at}: ${data.approved === true ? 'approved' : 'rejected'} · ${data.score ?? '?'}/${data.threshold ?? '?'} — ${data.feedback ?? ''}`,
    tone: data.approved === true ? 'ok' : 'fail',
  }),
  gate_fallback: ({ data }) => ({
    text: `${data.gate ?? 'a'} gate passed without review (the Supervisor failed)`,
    tone: 'warn',
  }),
};
