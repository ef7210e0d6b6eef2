import fs from 'node:fs';
import { MODEL_ROLES, type ModelRole } from '../types';

/** One scripted answer; exactly one of `json`, `raw`, `error`. */
export type ReplayEntry =
  | { role: ModelRole; kind: 'json'; json: unknown; delayMs: number }
  | { role: ModelRole; kind: 'raw'; raw: string; delayMs: number }
  | { role: ModelRole; kind: 'error'; error: string; delayMs: number };

const ENTRY_KEYS = new Set(['role', 'json', 'raw', 'error', 'delay_ms']);
const FILE_KEYS = new Set(['outputs', 'description']);
const MAX_DELAY_MS = 600_000;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Parses a replay file's text; throws an Error naming the entry index for anything off-format. */
export function parseReplayFile(text: string, filePath: string): ReplayEntry[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`replay file ${filePath} is not valid JSON (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  if (!isRecord(data) || !Array.isArray(data.outputs)) throw new Error(`replay file ${filePath} must be an object with an "outputs" array`);
  const unknownTop = Object.keys(data).filter((key) => !FILE_KEYS.has(key));
  if (unknownTop.length > 0) throw new Error(`replay file ${filePath}: unknown top-level key(s) ${unknownTop.join(', ')}`);
  return data.outputs.map((item, index) => parseEntry(item, `replay file ${filePath}: outputs[${index}]`));
}

function parseEntry(item: unknown, where: string): ReplayEntry {
  if (!isRecord(item)) throw new Error(`${where} must be an object`);
  const unknown = Object.keys(item).filter((key) => !ENTRY_KEYS.has(key));
  if (unknown.length > 0) throw new Error(`${where}: unknown key(s) ${unknown.join(', ')} (allowed: role, json, raw, error, delay_ms)`);
  const role = item.role;
  if (typeof role !== 'string' || !(MODEL_ROLES as readonly string[]).includes(role)) {
    throw new Error(`${where}: role ${JSON.stringify(role)} is not one of ${MODEL_ROLES.join(', ')}`);
  }
  const present = ['json', 'raw', 'error'].filter((key) => key in item);
  if (present.length !== 1) throw new Error(`${where} must have exactly one of json, raw, error (it has ${present.length === 0 ? 'none' : present.join(', ')})`);
  const delay = item.delay_ms ?? 0;
  if (typeof delay !== 'number' || !Number.isInteger(delay) || delay < 0 || delay > MAX_DELAY_MS) {
    throw new Error(`${where}: delay_ms must be an integer from 0 to ${MAX_DELAY_MS}`);
  }
  const modelRole = role as ModelRole;
  if ('json' in item) return { role: modelRole, kind: 'json', json: item.json, delayMs: delay };
  if (typeof item.raw === 'string') return { role: modelRole, kind: 'raw', raw: item.raw, delayMs: delay };
  if ('raw' in item) throw new Error(`${where}: raw must be a string`);
  if (typeof item.error !== 'string' || item.error.trim() === '') throw new Error(`${where}: error must be a non-empty string`);
  return { role: modelRole, kind: 'error', error: item.error, delayMs: delay };
}

export async function loadReplayFile(filePath: string): Promise<ReplayEntry[]> {
  let text: string;
  try {
    text = await fs.promises.readFile(filePath, 'utf8');
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : String(error);
    throw new Error(`cannot read replay file ${filePath} (${code})`, { cause: error });
  }
  return parseReplayFile(text, filePath);
}
