import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { runNativeGit } from '../git/nativeGit';
import { listRepoFiles } from '../tools/listFiles';
import { extractSymbols, type FileSymbol } from './symbols';

/** What the map knows of one file's content; keyed by git blob id, so it is the same in every checkout. */
export interface BlobFacts {
  lines: number;
  chars: number;
  symbols: FileSymbol[];
  /** Identifiers the file mentions (definitions and references), with their counts. */
  terms: Record<string, number>;
}

export interface MappedFile extends BlobFacts {
  path: string;
  blob: string;
}

export interface RepoMap {
  root: string;
  files: MappedFile[];
  byPath: Map<string, MappedFile>;
  /** Files parsed in this build (the rest came from a cache). */
  parsed: number;
}

const CACHE_VERSION = 3;
/** Bigger files are listed without symbols: generated bundles and data, not code to read. */
const MAX_MAPPED_BYTES = 1024 * 1024;
const MAX_TERMS = 1500;
const BINARY_EXTENSIONS = /\.(png|jpe?g|gif|webp|ico|icns|pdf|zip|gz|tgz|bz2|xz|7z|jar|wasm|so|dylib|dll|exe|bin|gguf|woff2?|ttf|otf|eot|mp[34]|mov|avi|sqlite|db|pyc|class|o|a)$/i;
const memory = new Map<string, BlobFacts>();

export function gitBlobId(content: Buffer): string {
  return crypto.createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

function termsOf(source: string): Record<string, number> {
  // A Map: as object keys, words like `constructor` would find Object.prototype's members.
  const counts = new Map<string, number>();
  for (const match of source.matchAll(/[A-Za-z_$][\w$]{2,63}/g)) {
    const term = match[0];
    const count = counts.get(term);
    if (count !== undefined) counts.set(term, count + 1);
    else if (counts.size < MAX_TERMS) counts.set(term, 1);
  }
  return Object.fromEntries(counts);
}

async function factsOf(file: string, content: Buffer): Promise<BlobFacts> {
  const empty = { lines: 0, chars: content.length, symbols: [], terms: {} };
  if (content.length > MAX_MAPPED_BYTES || content.subarray(0, 8000).includes(0)) return empty;
  const source = content.toString('utf8');
  return { lines: source.split('\n').length, chars: source.length, symbols: await extractSymbols(file, source), terms: termsOf(source) };
}

/** Tracked files with their index blob ids; modified and untracked (not ignored) files get null: read and hash them. */
async function listWithBlobs(root: string): Promise<Map<string, string | null> | null> {
  const staged = await runNativeGit(root, ['ls-files', '-s', '-z']).catch(() => null);
  if (staged?.code !== 0) return null;
  const listing = new Map<string, string | null>();
  for (const record of staged.stdout.split('\0')) {
    const tab = record.indexOf('\t');
    if (tab < 0) continue;
    const [mode, blob] = record.slice(0, tab).split(' ');
    if (mode === '160000' || !blob) continue;
    listing.set(record.slice(tab + 1), blob);
  }
  const [modified, untracked] = await Promise.all([runNativeGit(root, ['ls-files', '-m', '-d', '-z']), runNativeGit(root, ['ls-files', '-o', '--exclude-standard', '-z'])]);
  for (const file of modified.stdout.split('\0').filter(Boolean)) listing.set(file, null);
  for (const file of untracked.stdout.split('\0').filter(Boolean)) listing.set(file, null);
  for (const file of [...listing.keys()]) if (file === '.lathe' || file.startsWith('.lathe/')) listing.delete(file);
  return listing;
}

function readCache(cacheFile: string | null): void {
  if (!cacheFile) return;
  try {
    const data = JSON.parse(fs.readFileSync(cacheFile, 'utf8')) as { version?: number; blobs?: Record<string, BlobFacts> };
    if (data.version !== CACHE_VERSION || !data.blobs) return;
    for (const [blob, facts] of Object.entries(data.blobs)) if (!memory.has(blob)) memory.set(blob, facts);
  } catch {
    // No cache yet, or one from another version: the map is built from the files.
  }
}

function writeCache(cacheFile: string, files: MappedFile[]): void {
  const blobs: Record<string, BlobFacts> = {};
  for (const file of files) blobs[file.blob] = { lines: file.lines, chars: file.chars, symbols: file.symbols, terms: file.terms };
  fs.mkdirSync(path.dirname(cacheFile), { recursive: true });
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify({ version: CACHE_VERSION, blobs }));
  fs.renameSync(temporary, cacheFile);
}

async function mapLimit<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++] as T);
  }));
}

/**
 * The symbols of every listed file (git's tracked files plus untracked, not ignored ones), from
 * tree-sitter where a grammar exists. Facts are cached by blob id in memory and, with `cacheFile`, on
 * disk: an unchanged file is never read or parsed again.
 */
export async function buildRepoMap(root: string, options: { cacheFile?: string | null } = {}): Promise<RepoMap> {
  const base = path.resolve(root);
  const cacheFile = options.cacheFile ?? null;
  if (memory.size === 0) readCache(cacheFile);
  const listing = (await listWithBlobs(base)) ?? new Map((await listRepoFiles(base, { limit: 100_000 })).files.map((file) => [file, null] as const));
  let cacheMissing = cacheFile !== null && !fs.existsSync(cacheFile);
  if (cacheFile && !cacheMissing && [...listing.values()].some((blob) => blob !== null && !memory.has(blob))) readCache(cacheFile);
  const files: MappedFile[] = [];
  const toParse: { file: string; content: Buffer; blob: string }[] = [];
  const unknown = [...listing].filter(([file, blob]) => !BINARY_EXTENSIONS.test(file) && (blob === null || !memory.has(blob)));
  await mapLimit(unknown, 32, async ([file, blob]) => {
    const content = await fs.promises.readFile(path.join(base, file)).catch(() => null);
    if (!content) return;
    const id = blob ?? gitBlobId(content);
    if (!memory.has(id)) toParse.push({ file, content, blob: id });
    else listing.set(file, id);
  });
  for (const entry of toParse.sort((a, b) => (a.file < b.file ? -1 : 1))) {
    memory.set(entry.blob, await factsOf(entry.file, entry.content));
    listing.set(entry.file, entry.blob);
  }
  for (const [file, blob] of listing) {
    if (BINARY_EXTENSIONS.test(file) || blob === null) continue;
    const facts = memory.get(blob);
    if (facts) files.push({ path: file, blob, ...facts });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (cacheFile && (toParse.length > 0 || cacheMissing)) {
    try {
      writeCache(cacheFile, files);
      cacheMissing = false;
    } catch {
      // A cache that cannot be written only costs time next run.
    }
  }
  return { root: base, files, byPath: new Map(files.map((file) => [file.path, file])), parsed: toParse.length };
}

/** Forgets the in-memory facts (benchmarks measure a cold start with it). */
export function clearRepoMapMemory(): void {
  memory.clear();
}
