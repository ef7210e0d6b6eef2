import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { listRepoFiles } from '../git/listFiles';
import { clearListingMemory, listWithBlobs, type GitListing, type ListingOptions } from './gitListing';
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
const BINARY_EXTENSIONS =
  /\.(png|jpe?g|gif|webp|ico|icns|pdf|zip|gz|tgz|bz2|xz|7z|jar|wasm|so|dylib|dll|exe|bin|gguf|woff2?|ttf|otf|eot|mp[34]|mov|avi|sqlite|db|pyc|class|o|a)$/i;
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
  return {
    lines: source.split('\n').length,
    chars: source.length,
    symbols: await extractSymbols(file, source),
    terms: termsOf(source),
  };
}

/** Blobs parsed since each disk cache was last written; it is rewritten once they are 1 % of the map. */
const unsaved = new Map<string, number>();
const UNSAVED_SHARE = 100;

/** The disk caches this process has read or written, by their stat then: an unchanged one is not parsed again. */
const cacheSeen = new Map<string, string>();
const statKey = (file: string) => {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat ? `${stat.ino}:${stat.size}:${stat.mtimeMs}` : null;
};

function readCache(cacheFile: string | null): void {
  if (!cacheFile) return;
  try {
    const key = statKey(cacheFile);
    if (key === null || cacheSeen.get(cacheFile) === key) return;
    const data = JSON.parse(fs.readFileSync(cacheFile, 'utf8')) as {
      version?: number;
      blobs?: Record<string, BlobFacts>;
    };
    cacheSeen.set(cacheFile, key);
    if (data.version !== CACHE_VERSION || !data.blobs) return;
    for (const blob in data.blobs) if (!memory.has(blob)) memory.set(blob, data.blobs[blob] as BlobFacts);
  } catch {
    // catch-ok: No cache yet, or one from another version: the map is built from the files.
  }
}

function writeCache(cacheFile: string, files: MappedFile[]): void {
  const blobs: Record<string, BlobFacts> = {};
  for (const file of files)
    blobs[file.blob] = { lines: file.lines, chars: file.chars, symbols: file.symbols, terms: file.terms };
  fs.mkdirSync(path.dirname(cacheFile), { recursive: true });
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify({ version: CACHE_VERSION, blobs }));
  fs.renameSync(temporary, cacheFile);
  const key = statKey(cacheFile);
  if (key) cacheSeen.set(cacheFile, key);
}

async function mapLimit<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

/** Files the map never lists: binaries, and Lathe's own folder. */
const skipped = (file: string) => BINARY_EXTENSIONS.test(file) || file === '.lathe' || file.startsWith('.lathe/');

interface LastBuild {
  staged: GitListing['staged'];
  hashed: Map<string, string>;
  cacheFile: string | null;
  map: RepoMap;
}

/** Per work tree, the last map built: returned again while the index and the changed files are the same. */
const lastBuilds = new Map<string, LastBuild>();

function sameEntries(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [key, value] of a) if (b.get(key) !== value) return false;
  return true;
}

/**
 * The symbols of every listed file (git's tracked files plus untracked, not ignored ones), from
 * tree-sitter where a grammar exists. Facts are cached by blob id in memory and, with `cacheFile`, on
 * disk: an unchanged file is never read or parsed again. While git's index is unchanged and the files
 * it reports changed hash the same, the last map is returned as it was.
 */
export interface RepoMapOptions extends ListingOptions {
  /** Where facts are kept by blob id between processes (null: memory only). */
  cacheFile?: string | null;
}

export async function buildRepoMap(root: string, options: RepoMapOptions = {}): Promise<RepoMap> {
  const base = path.resolve(root);
  const cacheFile = options.cacheFile ?? null;
  // git lists the work tree while the disk cache is parsed.
  const listed = listWithBlobs(base, { workTreeMatchesIndex: options.workTreeMatchesIndex });
  if (memory.size === 0) readCache(cacheFile);
  const git = await listed;
  // What git cannot vouch for (changed and untracked files; everything outside git) is read and hashed.
  const toHash = (git ? git.changed : (await listRepoFiles(base, { limit: 100_000 })).files).filter(
    (file) => !skipped(file),
  );
  const hashed = new Map<string, string>();
  const contents = new Map<string, Buffer>();
  const read = async (file: string, blob: string | null) => {
    // catch-ok: best-effort map: a file that cannot be read is left out of it, never written over (decisions 64, 75)
    const content = await fs.promises.readFile(path.join(base, file)).catch(() => null);
    if (!content) return;
    const id = blob ?? gitBlobId(content);
    if (blob === null) hashed.set(file, id);
    if (!memory.has(id)) contents.set(file, content);
  };
  await mapLimit(toHash, 32, (file) => read(file, null));
  const last = lastBuilds.get(base);
  if (
    git &&
    last &&
    last.staged === git.staged &&
    last.cacheFile === cacheFile &&
    sameEntries(last.hashed, hashed) &&
    (cacheFile === null || fs.existsSync(cacheFile))
  ) {
    return { ...last.map, parsed: 0 };
  }

  const listing = new Map<string, string>();
  for (const [file, blob] of git?.staged ?? []) if (!skipped(file)) listing.set(file, blob);
  for (const file of toHash) {
    const id = hashed.get(file);
    if (id) listing.set(file, id);
    else listing.delete(file);
  }
  const cacheMissing = cacheFile !== null && !fs.existsSync(cacheFile);
  if (cacheFile && !cacheMissing && [...listing.values()].some((blob) => !memory.has(blob))) readCache(cacheFile);
  const unread = [...listing].filter(([file, blob]) => !hashed.has(file) && !memory.has(blob));
  await mapLimit(unread, 32, ([file, blob]) => read(file, blob));
  const toParse = [...contents].sort(([a], [b]) => (a < b ? -1 : 1));
  for (const [file, content] of toParse) {
    const blob = listing.get(file) as string;
    if (!memory.has(blob)) memory.set(blob, await factsOf(file, content));
  }
  const files: MappedFile[] = [];
  for (const [file, blob] of listing) {
    const facts = memory.get(blob);
    if (facts) files.push({ path: file, blob, ...facts });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (cacheFile) {
    // Rewriting the whole cache after every edit costs more than the next process re-parsing a few files.
    const pending = (unsaved.get(cacheFile) ?? 0) + toParse.length;
    unsaved.set(cacheFile, pending);
    if (cacheMissing || (pending > 0 && pending * UNSAVED_SHARE >= files.length)) {
      try {
        writeCache(cacheFile, files);
        unsaved.set(cacheFile, 0);
      } catch {
        // catch-ok: A cache that cannot be written only costs time next run.
      }
    }
  }
  const map: RepoMap = {
    root: base,
    files,
    byPath: new Map(files.map((file) => [file.path, file])),
    parsed: toParse.length,
  };
  if (git) lastBuilds.set(base, { staged: git.staged, hashed, cacheFile, map });
  return map;
}

/** Forgets the in-memory facts, listings and maps (benchmarks measure a cold start with it). */
export function clearRepoMapMemory(): void {
  memory.clear();
  lastBuilds.clear();
  cacheSeen.clear();
  unsaved.clear();
  clearListingMemory();
}
