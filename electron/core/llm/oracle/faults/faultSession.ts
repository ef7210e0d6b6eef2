import type { EditFormatName } from '../../../edits/types';
import type { GoldFile } from '../goldPatch';
import type { VisibleFile } from '../visibleFile';
import { cutAnswer } from './cutOff';
import { diffHeader, diffWhitespace } from './diffFaults';
import { elide } from './elide';
import { isNamed } from './evidence';
import {
  APPLY_ORDER,
  FAULT_FORMATS,
  REPEATABLE_KINDS,
  type EditFaultKind,
  type FaultKind,
  type FaultSettings,
} from './faultSettings';
import { nearMissSearch } from './nearMissSearch';
import { noOp } from './noOp';
import { seededRandom, shuffled } from './random';
import { reindent } from './reindent';
import { answerOf, proposalOf, type FaultEvidence, type Spoiler, type WriterAnswer } from './spoil';
import { testPath } from './testPath';
import { unrelatedChange } from './unrelatedChange';
import { wrongPath } from './wrongPath';

/** The spoiler of each kind that changes an answer's content. */
export const SPOILERS: Record<EditFaultKind, Spoiler> = {
  elide,
  reindent,
  'near-miss-search': nearMissSearch,
  'diff-header': diffHeader,
  'diff-whitespace': diffWhitespace,
  'wrong-path': wrongPath,
  'test-path': testPath,
  'unrelated-change': unrelatedChange,
  'no-op': noOp,
};

/** One writer call (purpose `code`) as the fault session sees it. */
export interface WriterCall {
  /** The step (task id) the request is for. */
  step: string;
  format: EditFormatName;
  /** The perfect answer: a proposal value, or why the oracle declines. */
  correct: { kind: 'value'; value: unknown } | { kind: 'decline'; reason: string };
  files: ReadonlyMap<string, VisibleFile>;
  gold: readonly GoldFile[];
  feedback: string | null;
  notes: readonly string[];
  /** The call's answer budget (what a cut is measured against). */
  maxTokens: number;
  /** Whether the role states that budget (else a cut falls at a fraction of the answer). */
  budgetStated: boolean;
  /** Whether a proposal fits the writer's schema. */
  fits: (value: unknown) => boolean;
}

export type WriterReply =
  | { kind: 'value'; value: unknown }
  | { kind: 'decline'; reason: string }
  | { kind: 'cut'; raw: string; maxTokens: number };

/** One line of the fault journal: what one writer answer carried. */
export interface FaultJournalLine {
  task: string;
  step: string;
  /** 1 for the step's first writer answer. */
  answer: number;
  carried: FaultKind[];
  /** Defects the request's feedback named, dropped from this answer on (feedback-check). */
  named: FaultKind[];
  /** Kinds decided for this answer that could not apply, and why (the answer stays correct there). */
  skipped: { kind: FaultKind; reason: string }[];
  repeat_of: FaultKind | null;
  /** How many answers of this step so far were byte-identical to this one (itself included; 0 for a decline). */
  identical: number;
  reply: WriterReply['kind'];
}

interface StepState {
  answers: number;
  frozen: { reply: WriterReply; carried: FaultKind[] } | null;
  repeatOf: FaultKind | null;
  pending: Set<FaultKind>;
  evidence: Map<FaultKind, FaultEvidence>;
  seen: Map<string, number>;
}

interface Spoiled {
  answer: WriterAnswer;
  carried: FaultKind[];
  evidence: Map<FaultKind, FaultEvidence>;
  skipped: { kind: FaultKind; reason: string }[];
}

/**
 * The oracle's writer answers, spoiled as `settings` say: a step's first answer carries each kind with
 * its rate; later answers are correct, except `repeat` (the first answer again, byte for byte) and,
 * with feedback-check, defects the requests have not named yet. One session per provider, so per run.
 */
export class FaultSession {
  private readonly steps = new Map<string, StepState>();

  constructor(private readonly settings: FaultSettings) {}

  /** The reply to one writer call, its journal line, and the evidence of each defect it carries (what would name it). */
  answer(call: WriterCall): { reply: WriterReply; journal: FaultJournalLine; evidence: FaultEvidence[] } {
    let step = this.steps.get(call.step);
    if (!step)
      this.steps.set(
        call.step,
        (step = { answers: 0, frozen: null, repeatOf: null, pending: new Set(), evidence: new Map(), seen: new Map() }),
      );
    step.answers++;
    const line = step.answers === 1 ? this.first(call, step) : this.later(call, step);
    // A decline is the oracle saying it cannot answer (the file no longer matches), not a model repeating itself.
    const key = JSON.stringify(line.reply);
    const identical = line.reply.kind === 'decline' ? 0 : (step.seen.get(key) ?? 0) + 1;
    if (line.reply.kind !== 'decline') step.seen.set(key, identical);
    const evidence = line.carried.flatMap((kind) => step.evidence.get(kind) ?? []);
    return {
      reply: line.reply,
      evidence,
      journal: {
        task: this.settings.task,
        step: call.step,
        answer: step.answers,
        carried: line.carried,
        named: line.named,
        skipped: line.skipped,
        repeat_of: step.repeatOf,
        identical,
        reply: line.reply.kind,
      },
    };
  }

  private random(step: string, kind: FaultKind, purpose: string) {
    return seededRandom(this.settings.seed, this.settings.task, step, kind, purpose);
  }

  private first(call: WriterCall, step: StepState) {
    const decided = this.settings.faults
      .filter((fault) => this.random(call.step, fault.kind, 'rate')() < fault.rate)
      .map((fault) => fault.kind);
    const base = call.correct.kind === 'value' ? answerOf(call.format, call.correct.value) : null;
    if (!base) {
      const reason =
        call.correct.kind === 'decline'
          ? `the oracle declined this answer (${call.correct.reason})`
          : 'the correct answer has no edit to spoil';
      return {
        reply: call.correct as WriterReply,
        carried: [],
        named: [],
        skipped: decided.map((kind) => ({ kind, reason })),
      };
    }
    const spoiled = this.spoil(
      call,
      base,
      decided.filter((kind) => kind !== 'repeat'),
    );
    if (decided.includes('repeat')) this.repeat(call, step, spoiled);
    step.pending = new Set(spoiled.carried);
    step.evidence = spoiled.evidence;
    const reply = this.reply(call, spoiled);
    if (step.repeatOf) step.frozen = { reply, carried: spoiled.carried };
    return { reply, carried: spoiled.carried, named: [], skipped: spoiled.skipped };
  }

  /** `repeat`: one of the kinds Lathe must refuse, chosen by seed among those that apply; its answer is then frozen. */
  private repeat(call: WriterCall, step: StepState, spoiled: Spoiled): void {
    const options = shuffled(
      this.random(call.step, 'repeat', 'choice'),
      REPEATABLE_KINDS.filter((kind) => FAULT_FORMATS[kind].includes(call.format)),
    );
    for (const kind of options) {
      if (!spoiled.carried.includes(kind)) {
        const added = this.spoil(call, spoiled.answer, [kind]);
        if (added.carried.length === 0) continue;
        spoiled.answer = added.answer;
        spoiled.carried.push(kind);
        added.evidence.forEach((evidence, key) => spoiled.evidence.set(key, evidence));
      }
      spoiled.carried.push('repeat');
      step.repeatOf = kind;
      return;
    }
    spoiled.skipped.push({ kind: 'repeat', reason: 'none of the kinds it repeats applies to this answer' });
  }

  private later(call: WriterCall, step: StepState) {
    if (step.frozen) return { reply: step.frozen.reply, carried: step.frozen.carried, named: [], skipped: [] };
    if (!this.settings.feedbackCheck || step.pending.size === 0)
      return { reply: call.correct as WriterReply, carried: [], named: [], skipped: [] };
    const named = [...step.pending].filter((kind) => {
      const evidence = step.evidence.get(kind);
      return (
        evidence !== undefined &&
        isNamed(evidence, { feedback: call.feedback, maxTokens: call.maxTokens, format: call.format })
      );
    });
    named.forEach((kind) => step.pending.delete(kind));
    const base = call.correct.kind === 'value' ? answerOf(call.format, call.correct.value) : null;
    if (!base || step.pending.size === 0)
      return { reply: call.correct as WriterReply, carried: [], named, skipped: [] };
    // The model repeats itself: every defect not named yet is made again, on the answer as it now is.
    const spoiled = this.spoil(call, base, [...step.pending]);
    spoiled.skipped.forEach(({ kind }) => step.pending.delete(kind));
    spoiled.evidence.forEach((evidence, kind) => step.evidence.set(kind, evidence));
    return { reply: this.reply(call, spoiled), carried: spoiled.carried, named, skipped: spoiled.skipped };
  }

  private spoil(call: WriterCall, base: WriterAnswer, kinds: readonly FaultKind[]): Spoiled {
    const out: Spoiled = { answer: base, carried: [], evidence: new Map(), skipped: [] };
    const wrongFormat = (kind: FaultKind) => !FAULT_FORMATS[kind].includes(call.format);
    for (const kind of kinds.filter(wrongFormat))
      out.skipped.push({
        kind,
        reason: `${kind} does not apply to ${call.format} answers (it applies to ${FAULT_FORMATS[kind].join(', ')})`,
      });
    for (const kind of APPLY_ORDER.filter((entry) => kinds.includes(entry) && !wrongFormat(entry))) {
      const result = SPOILERS[kind]({
        answer: out.answer,
        files: call.files,
        gold: call.gold,
        feedback: call.feedback,
        notes: call.notes,
        random: this.random(call.step, kind, 'shape'),
      });
      if (!result.ok) out.skipped.push({ kind, reason: result.reason });
      else if (!call.fits(proposalOf(result.answer)))
        out.skipped.push({ kind, reason: "the spoiled answer would not fit the writer's schema" });
      else {
        out.answer = result.answer;
        out.carried.push(kind);
        out.evidence.set(kind, result.evidence);
      }
    }
    if (kinds.includes('cut-off') && !wrongFormat('cut-off')) {
      out.carried.push('cut-off');
      out.evidence.set('cut-off', { kind: 'cut-off', maxTokens: call.maxTokens, format: call.format });
    }
    return out;
  }

  private reply(call: WriterCall, spoiled: Spoiled): WriterReply {
    const value = proposalOf(spoiled.answer);
    if (!spoiled.carried.includes('cut-off')) return { kind: 'value', value };
    const raw = cutAnswer(
      JSON.stringify(value),
      call.budgetStated ? call.maxTokens : undefined,
      this.random(call.step, 'cut-off', 'length'),
    );
    return { kind: 'cut', raw, maxTokens: call.maxTokens };
  }
}
