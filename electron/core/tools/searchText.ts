import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { LatheError } from '../../../shared/errors';
import type { SearchHit } from './types';
import { listRepoFiles } from '../git/listFiles';

export const SEARCH_LIMITS = {
  maxResults: 100,
  maxFileBytes: 1024 * 1024,
  /** Only this much of a line is searched: long minified lines are where regexes blow up. */
  maxLineChars: 2000,
  shownChars: 300,
  maxPatternChars: 500,
  regexBudgetMs: 3000,
  maxFiles: 50_000,
} as const;

/**
 * Runs in a worker thread: a catastrophic regex can hang its thread for minutes, and only a worker
 * can be stopped from outside. Hits are posted per file so a timeout still returns what was found.
 */
const REGEX_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const { root, files, pattern, maxResults, maxFileBytes, maxLineChars, shownChars } = workerData;
const regex = new RegExp(pattern);
let count = 0;
for (const file of files) {
  if (count >= maxResults) break;
  let buffer;
  try {
    const stat = fs.statSync(path.join(root, file));
    if (!stat.isFile() || stat.size > maxFileBytes) continue;
    buffer = fs.readFileSync(path.join(root, file));
  } catch { continue; }
  if (buffer.subarray(0, 8000).includes(0)) continue;
  const lines = buffer.toString('utf8').split('\\n');
  const hits = [];
  for (let index = 0; index < lines.length && count < maxResults; index++) {
    const line = lines[index].slice(0, maxLineChars);
    if (regex.test(line)) { hits.push({ path: file, line: index + 1, text: line.slice(0, shownChars) }); count++; }
  }
  if (hits.length) parentPort.postMessage({ hits });
}
parentPort.postMessage({ done: true });
`;

export interface SearchOptions {
  regex?: boolean;
  maxResults?: number;
  under?: string;
}

export async function searchRepoText(
  root: string,
  query: string,
  options: SearchOptions = {},
): Promise<{ hits: SearchHit[]; truncated: boolean }> {
  if (!query) throw new LatheError('INVALID_QUERY', 'empty search query', {});
  if (query.length > SEARCH_LIMITS.maxPatternChars)
    throw new LatheError('INVALID_QUERY', `query longer than ${SEARCH_LIMITS.maxPatternChars} characters`, {});
  const maxResults = Math.min(Math.max(1, options.maxResults ?? SEARCH_LIMITS.maxResults), 1000);
  const listed = await listRepoFiles(root, { under: options.under, limit: SEARCH_LIMITS.maxFiles });
  if (options.regex) {
    try {
      new RegExp(query);
    } catch (error) {
      throw new LatheError('INVALID_QUERY', `invalid regular expression: ${(error as Error).message}`, { query });
    }
    const result = await regexInWorker(root, listed.files, query, maxResults + 1);
    return {
      hits: result.hits.slice(0, maxResults),
      truncated: listed.truncated || result.timedOut || result.hits.length > maxResults,
    };
  }
  const hits: SearchHit[] = [];
  for (const file of listed.files) {
    const text = await readSearchable(path.join(root, file));
    if (text === null) continue;
    const lines = text.split('\n');
    for (let index = 0; index < lines.length; index++) {
      const line = (lines[index] as string).slice(0, SEARCH_LIMITS.maxLineChars);
      if (!line.includes(query)) continue;
      if (hits.length >= maxResults) return { hits, truncated: true };
      hits.push({ path: file, line: index + 1, text: line.slice(0, SEARCH_LIMITS.shownChars) });
    }
  }
  return { hits, truncated: listed.truncated };
}

async function readSearchable(file: string): Promise<string | null> {
  // catch-ok: search skips what it cannot read, as grep does; the agent's read_file reports it
  const stat = await fs.promises.stat(file).catch(() => null);
  if (!stat?.isFile() || stat.size > SEARCH_LIMITS.maxFileBytes) return null;
  // catch-ok: search skips what it cannot read, as grep does; the agent's read_file reports it
  const buffer = await fs.promises.readFile(file).catch(() => null);
  if (!buffer || buffer.subarray(0, 8000).includes(0)) return null;
  return buffer.toString('utf8');
}

function regexInWorker(
  root: string,
  files: string[],
  pattern: string,
  maxResults: number,
): Promise<{ hits: SearchHit[]; timedOut: boolean }> {
  return new Promise((resolve, reject) => {
    const hits: SearchHit[] = [];
    const worker = new Worker(REGEX_WORKER, {
      eval: true,
      workerData: {
        root,
        files,
        pattern,
        maxResults,
        maxFileBytes: SEARCH_LIMITS.maxFileBytes,
        maxLineChars: SEARCH_LIMITS.maxLineChars,
        shownChars: SEARCH_LIMITS.shownChars,
      },
    });
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve({ hits, timedOut: true });
    }, SEARCH_LIMITS.regexBudgetMs);
    worker.on('message', (message: { hits?: SearchHit[]; done?: boolean }) => {
      if (message.hits) hits.push(...message.hits);
      if (message.done) {
        clearTimeout(timer);
        void worker.terminate();
        resolve({ hits, timedOut: false });
      }
    });
    worker.on('error', (error) => {
      clearTimeout(timer);
      reject(new LatheError('INTERNAL', `search failed: ${error.message}`));
    });
  });
}
