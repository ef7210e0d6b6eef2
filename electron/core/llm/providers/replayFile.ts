import fs from 'node:fs';
import { GATE_KINDS, type GateKind } from '../../../../shared/schemas/gates';
import { MODEL_ROLES, type ModelRole } from '../../../../shared/schemas/roles';

/** One scripted answer; exactly one of `json`, `raw`, `error`. */
export type ReplayEntry =
  | { role: ModelRole; kind: 'json'; json: unknown; delayMs: number }
  | { role: ModelRole; kind: 'raw'; raw: string; delayMs: number }
  | { role: ModelRole; kind: 'error'; error: string; delayMs: number };

/**
 * Answers recorded for a human's rejection: used once, by the first call that answers a rejection at
 * this gate (and step) — see ReplayProvider. Absent `gate`/`step` match any.
 */
export interface ReplayRevision {
  gate: GateKind | null;
  step: string | null;
  entries: ReplayEntry[];
}

/** A whole replay file: the main answers, and the revisions kept aside for rejected gates. */
export interface ReplayScript {
  entries: ReplayEntry[];
  revisions: ReplayRevision[];
}

const ENTRY_KEYS = new Set(['role', 'json', 'raw', 'error', 'delay_ms']);
const FILE_KEYS = new Set(['outputs', 'description', 'revisions']);
const REVISION_KEYS = new Set(['gate', 'step', 'description', 'outputs']);
const MAX_DELAY_MS = 600_000;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Parses a replay file's text; throws an Error naming the entry index for anything off-format. */
export function parseReplayFile(text: string, filePath: string): ReplayEntry[] {
  return parseReplayScript(text, filePath).entries;
}

/** A replay file's main entries and its revisions; throws as parseReplayFile does. */
export function parseReplayScript(text: string, filePath: string): ReplayScript {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(
      `replay file ${filePath} is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
      { cause: error },
    );
  }
  if (!isRecord(data) || !Array.isArray(data.outputs))
    throw new Error(`replay file ${filePath} must be an object with an "outputs" array`);
  const unknownTop = Object.keys(data).filter((key) => !FILE_KEYS.has(key));
  if (unknownTop.length > 0)
    throw new Error(`replay file ${filePath}: unknown top-level key(s) ${unknownTop.join(', ')}`);
  const entries = data.outputs.map((item, index) => parseEntry(item, `replay file ${filePath}: outputs[${index}]`));
  if (data.revisions !== undefined && !Array.isArray(data.revisions))
    throw new Error(`replay file ${filePath}: "revisions" must be an array`);
  const revisions = (data.revisions ?? []).map((item: unknown, index: number) =>
    parseRevision(item, `replay file ${filePath}: revisions[${index}]`),
  );
  return { entries, revisions };
}

function parseRevision(item: unknown, where: string): ReplayRevision {
  if (!isRecord(item) || !Array.isArray(item.outputs))
    throw new Error(`${where} must be an object with an "outputs" array`);
  const unknown = Object.keys(item).filter((key) => !REVISION_KEYS.has(key));
  if (unknown.length > 0)
    throw new Error(`${where}: unknown key(s) ${unknown.join(', ')} (allowed: gate, step, description, outputs)`);
  const gate = item.gate ?? null;
  if (gate !== null && !(GATE_KINDS as readonly unknown[]).includes(gate))
    throw new Error(`${where}: gate ${JSON.stringify(gate)} is not one of ${GATE_KINDS.join(', ')}`);
  const step = item.step ?? null;
  if (step !== null && (typeof step !== 'string' || step === ''))
    throw new Error(`${where}: step must be a non-empty string`);
  const entries = item.outputs.map((entry, index) => parseEntry(entry, `${where}.outputs[${index}]`));
  return { gate: gate as GateKind | null, step: step as string | null, entries };
}

function parseEntry(item: unknown, where: string): ReplayEntry {
  if (!isRecord(item)) throw new Error(`${where} must be an object`);
  const unknown = Object.keys(item).filter((key) => !ENTRY_KEYS.has(key));
  if (unknown.length > 0)
    throw new Error(`${where}: unknown key(s) ${unknown.join(', ')} (allowed: role, json, raw, error, delay_ms)`);
  const role = item.role;
  if (typeof role !== 'string' || !(MODEL_ROLES as readonly string[]).includes(role)) {
    throw new Error(`${where}: role ${JSON.stringify(role)} is not one of ${MODEL_ROLES.join(', ')}`);
  }
  const present = ['json', 'raw', 'error'].filter((key) => key in item);
  if (present.length !== 1)
    throw new Error(
      `${where} must have exactly one of json, raw, error (it has ${present.length === 0 ? 'none' : present.join(', ')})`,
    );
  const delay = item.delay_ms ?? 0;
  if (typeof delay !== 'number' || !Number.isInteger(delay) || delay < 0 || delay > MAX_DELAY_MS) {
    throw new Error(`${where}: delay_ms must be an integer from 0 to ${MAX_DELAY_MS}`);
  }
  const modelRole = role as ModelRole;
  if ('json' in item) return { role: modelRole, kind: 'json', json: item.json, delayMs: delay };
  if (typeof item.raw === 'string') return { role: modelRole, kind: 'raw', raw: item.raw, delayMs: delay };
  if ('raw' in item) throw new Error(`${where}: raw must be a string`);
  if (typeof item.error !== 'string' || item.error.trim() === '')
    throw new Error(`${where}: error must be a non-empty string`);
  return { role: modelRole, kind: 'error', error: item.error, delayMs: delay };
}

export async function loadReplayFile(filePath: string): Promise<ReplayScript> {
  let text: string;
  try {
    text = await fs.promises.readFile(filePath, 'utf8');
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : String(error);
    throw new Error(`cannot read replay file ${filePath} (${code})`, { cause: error });
  }
  return parseReplayScript(text, filePath);
}
