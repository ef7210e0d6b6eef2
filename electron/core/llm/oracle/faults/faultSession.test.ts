import { describe, expect, it } from 'vitest';
import { CASES } from '../../../../../test-support/faultFixtures';
import { editFormats } from '../../../edits/formats';
import type { EditFormatName } from '../../../edits/types';
import { editAnswer } from '../editAnswers';
import { wholeView, type VisibleFile } from '../visibleFile';
import { isNamed } from './evidence';
import { FaultSession, type WriterCall } from './faultSession';
import { REPEATABLE_KINDS, type FaultKind, type FaultSettings } from './faultSettings';
import type { FaultEvidence } from './spoil';

const [python] = CASES;
if (!python) throw new Error('no fixture');

function writerCall(format: EditFormatName, overrides: Partial<WriterCall> = {}): WriterCall {
  const files = new Map<string, VisibleFile>(
    Object.entries(python?.shown ?? {}).map(([path, text]) => [path, wholeView(text)]),
  );
  const correct = editAnswer(format, python?.gold ?? [], files);
  if (!correct.ok) throw new Error(correct.reason);
  return {
    step: 'T1',
    format,
    correct: { kind: 'value', value: correct.proposal },
    files,
    gold: python?.gold ?? [],
    feedback: null,
    notes: [],
    maxTokens: 1024,
    budgetStated: false,
    fits: (value) => editFormats[format].schema.safeParse(value).success,
    ...overrides,
  };
}

const settings = (kinds: string, overrides: Partial<FaultSettings> = {}): FaultSettings => ({
  faults: kinds.split(',').map((entry) => {
    const [kind, rate] = entry.split(':');
    return { kind: kind as FaultKind, rate: rate === undefined ? 1 : Number(rate) };
  }),
  seed: 1,
  task: 'stats-task',
  feedbackCheck: false,
  journal: null,
  ...overrides,
});

/** Feedback that names a defect the way Lathe's messages are written to (docs/eval.md, "Faults"). */
function naming(evidence: FaultEvidence): string {
  switch (evidence.kind) {
    case 'elide':
      return `stats.py: line 12 is a placeholder (${evidence.placeholder}) where code was left out; write the lines out`;
    case 'near-miss-search':
      return `${evidence.path}: the search block was not found; the closest text is at lines ${evidence.ranges[0]?.[0]}-${evidence.ranges[0]?.[1]}`;
    case 'wrong-path':
      return `${evidence.wrongPath} does not exist; did you mean ${evidence.path}?`;
    case 'test-path':
      return `You changed the test file ${evidence.testPath}; fix the source instead.`;
    case 'unrelated-change':
      return `${evidence.path}: lines ${evidence.range[0]}-${evidence.range[1]} are unrelated to the task; leave them as they were.`;
    case 'no-op':
      return 'Your edit changed nothing.';
    case 'reindent':
    case 'diff-header':
    case 'diff-whitespace':
      return `${evidence.path}: could not apply the edit`;
    case 'cut-off':
      return '';
    default:
      return evidence satisfies never;
  }
}

const NAMED_IN: { kind: FaultKind; format: EditFormatName }[] = [
  { kind: 'elide', format: 'whole-file' },
  { kind: 'elide', format: 'search-replace' },
  { kind: 'near-miss-search', format: 'search-replace' },
  { kind: 'wrong-path', format: 'unified-diff' },
  { kind: 'test-path', format: 'search-replace' },
  { kind: 'unrelated-change', format: 'whole-file' },
  { kind: 'no-op', format: 'unified-diff' },
  { kind: 'reindent', format: 'search-replace' },
  { kind: 'diff-header', format: 'unified-diff' },
  { kind: 'diff-whitespace', format: 'unified-diff' },
];

describe('fault session', () => {
  it("spoils a step's first answer only; later answers are the correct one", () => {
    const session = new FaultSession(settings('elide'));
    const first = session.answer(writerCall('whole-file'));
    expect(first.journal).toMatchObject({ step: 'T1', answer: 1, carried: ['elide'], skipped: [], reply: 'value' });
    expect(first.reply).not.toEqual(writerCall('whole-file').correct);
    const second = session.answer(writerCall('whole-file'));
    expect(second.reply).toEqual(writerCall('whole-file').correct);
    expect(second.journal).toMatchObject({ answer: 2, carried: [] });
    // Another step starts again with a spoiled first answer.
    expect(session.answer(writerCall('whole-file', { step: 'T2' })).journal.carried).toEqual(['elide']);
  });

  it("decides each step by (seed, task, step, kind) at the kind's rate", () => {
    const spoiledSteps = (overrides: Partial<FaultSettings>) => {
      const session = new FaultSession(settings('no-op:0.5', overrides));
      return Array.from({ length: 40 }, (_, index) => `T${index + 1}`).filter(
        (step) => session.answer(writerCall('search-replace', { step })).journal.carried.length > 0,
      );
    };
    const once = spoiledSteps({});
    expect(spoiledSteps({})).toEqual(once);
    expect(once.length).toBeGreaterThan(10);
    expect(once.length).toBeLessThan(30);
    expect(spoiledSteps({ seed: 2 })).not.toEqual(once);
    expect(spoiledSteps({ task: 'other-task' })).not.toEqual(once);
    expect(new FaultSession(settings('no-op:0')).answer(writerCall('search-replace')).journal.carried).toEqual([]);
  });

  it('says which kinds could not apply, and leaves the answer correct there', () => {
    const { reply, journal } = new FaultSession(settings('diff-header,near-miss-search')).answer(
      writerCall('whole-file'),
    );
    expect(reply).toEqual(writerCall('whole-file').correct);
    expect(journal.skipped).toEqual([
      { kind: 'diff-header', reason: 'diff-header does not apply to whole-file answers (it applies to unified-diff)' },
      {
        kind: 'near-miss-search',
        reason: 'near-miss-search does not apply to whole-file answers (it applies to search-replace)',
      },
    ]);
    const declined = new FaultSession(settings('elide')).answer(
      writerCall('whole-file', { correct: { kind: 'decline', reason: 'stats.py is not in the context' } }),
    );
    expect(declined.reply).toEqual({ kind: 'decline', reason: 'stats.py is not in the context' });
    expect(declined.journal.skipped).toEqual([
      { kind: 'elide', reason: 'the oracle declined this answer (stats.py is not in the context)' },
    ]);
  });

  it('repeat gives the same spoiled answer byte for byte, every time, whatever the feedback says', () => {
    const session = new FaultSession(settings('repeat', { feedbackCheck: true }));
    const answers = Array.from({ length: 4 }, (_, index) =>
      session.answer(
        writerCall('search-replace', {
          feedback: index === 0 ? null : 'Your edit changed nothing. lines 1-400 of stats.py',
        }),
      ),
    );
    const raw = answers.map((answer) => JSON.stringify(answer.reply));
    expect(new Set(raw).size).toBe(1);
    expect(answers.map((answer) => answer.journal.identical)).toEqual([1, 2, 3, 4]);
    expect(REPEATABLE_KINDS).toContain(answers[0]?.journal.repeat_of);
    expect(answers[0]?.journal.carried).toEqual(expect.arrayContaining(['repeat', answers[0]?.journal.repeat_of]));
    expect(raw[0]).not.toBe(JSON.stringify(writerCall('search-replace').correct));
  });

  for (const { kind, format } of NAMED_IN) {
    it(`feedback-check, ${kind} (${format}): dropped once the feedback names it, made again while it does not`, () => {
      const named = new FaultSession(settings(kind, { feedbackCheck: true }));
      const first = named.answer(writerCall(format));
      expect(first.journal.carried).toEqual([kind]);
      const evidence = first.evidence[0] as FaultEvidence;
      expect(isNamed(evidence, { feedback: naming(evidence), maxTokens: 1024, format })).toBe(true);
      const corrected = named.answer(writerCall(format, { feedback: naming(evidence) }));
      expect(corrected.journal).toMatchObject({ named: [kind], carried: [] });
      expect(corrected.reply).toEqual(writerCall(format).correct);

      const unnamed = new FaultSession(settings(kind, { feedbackCheck: true }));
      const again = unnamed.answer(writerCall(format));
      const repeated = unnamed.answer(writerCall(format, { feedback: 'The tests fail: 1 failed, 3 passed.' }));
      expect(repeated.journal).toMatchObject({ named: [], carried: [kind] });
      expect(repeated.reply).toEqual(again.reply);
    });
  }

  it('feedback-check, cut-off: dropped when the retry has a larger budget or asks for another format', () => {
    const session = () => new FaultSession(settings('cut-off', { feedbackCheck: true }));
    const cut = session();
    const first = cut.answer(writerCall('search-replace'));
    expect(first.reply).toMatchObject({ kind: 'cut', maxTokens: 1024 });
    expect(cut.answer(writerCall('search-replace')).reply).toMatchObject({ kind: 'cut' });
    expect(cut.answer(writerCall('search-replace', { maxTokens: 2048 })).reply).toEqual(
      writerCall('search-replace').correct,
    );
    const reformatted = session();
    reformatted.answer(writerCall('search-replace'));
    expect(reformatted.answer(writerCall('unified-diff')).reply).toEqual(writerCall('unified-diff').correct);
  });

  it('without feedback-check, a defect never outlives the first answer, named or not', () => {
    const session = new FaultSession(settings('near-miss-search'));
    session.answer(writerCall('search-replace'));
    expect(session.answer(writerCall('search-replace', { feedback: 'The tests fail.' })).reply).toEqual(
      writerCall('search-replace').correct,
    );
  });
});
