import fs from 'node:fs';
import path from 'node:path';
import type { RepoSummaryOptions } from './types';
import { firstDocLine, formatSize, languageOf } from './fileNotes';
import { listRepoFiles } from '../git/listFiles';

export const SUMMARY_DEFAULTS = { maxEntries: 200, maxBytes: 12_000, maxFiles: 250_000, statAllBelow: 5000 } as const;

const KEY_FILES =
  /^(readme(\.\w+)?|package\.json|pyproject\.toml|setup\.py|setup\.cfg|cargo\.toml|go\.mod|makefile|dockerfile|tsconfig\.json|requirements[\w.-]*\.txt|pytest\.ini|tox\.ini|conftest\.py|cmakelists\.txt|gemfile|pom\.xml|build\.gradle(\.kts)?)$/i;
const SOURCE_DIRS = /^(src|lib|app|pkg|cmd|internal|core|server|client|electron|renderer|shared)$/;
const TEST_PATH = /(^|\/)(tests?|__tests__|spec)\/|(^|\/)test_[^/]+\.py$|_test\.(py|go)$|\.(test|spec)\.[cm]?[jt]sx?$/;
const LOW_VALUE_DIRS =
  /(^|\/)(vendor|third_party|dist|build|out|coverage|fixtures?|__snapshots__|snapshots|migrations|generated|\.github|assets|static|public|examples?|docs?\/api)\//;
const LOW_VALUE_FILES =
  /(\.lock|-lock\.json|\.min\.[jc]ss?|\.map|\.svg|\.png|\.jpe?g|\.gif|\.ico|\.woff2?|\.ttf|\.pdf|\.snap|\.csv|\.parquet|\.bin)$/i;

/** Importance of a path without touching the disk: key files, shallow source, then tests and docs. */
export function pathScore(file: string): number {
  const depth = file.split('/').length - 1;
  const base = path.posix.basename(file);
  const top = file.split('/')[0] as string;
  let score = 100 - depth * 12;
  if (depth === 0) score += 40;
  if (KEY_FILES.test(base)) score += 60;
  if (depth > 0 && SOURCE_DIRS.test(top)) score += 25;
  if (TEST_PATH.test(file)) score += 5;
  if (languageOf(file) && !/(JSON|YAML|Text|XML)/.test(languageOf(file) as string)) score += 15;
  if (LOW_VALUE_DIRS.test(file)) score -= 60;
  if (LOW_VALUE_FILES.test(base)) score -= 50;
  if (base.startsWith('.')) score -= 20;
  return score;
}

interface Entry {
  file: string;
  score: number;
  size: number | null;
  mtimeMs: number | null;
}

async function statAll(root: string, entries: Entry[]): Promise<void> {
  const batch = 64;
  for (let index = 0; index < entries.length; index += batch) {
    await Promise.all(
      entries.slice(index, index + batch).map(async (entry) => {
        // catch-ok: display only: a file that cannot be looked at shows no size (decision 75)
        const stat = await fs.promises.lstat(path.join(root, entry.file)).catch(() => null);
        entry.size = stat?.size ?? null;
        entry.mtimeMs = stat?.mtimeMs ?? null;
      }),
    );
  }
}

async function headOf(file: string): Promise<string> {
  // catch-ok: display only: a file that cannot be opened shows no head (decision 75)
  const handle = await fs.promises.open(file, 'r').catch(() => null);
  if (!handle) return '';
  try {
    const buffer = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(buffer, 0, 4096, 0);
    const bytes = buffer.subarray(0, bytesRead);
    return bytes.includes(0) ? '' : bytes.toString('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Seed 000's repo summary: one line per relative path with a brief note (language, size, first doc
 * line), bounded by entries and bytes. A large repo keeps its most important files (ranked by
 * path, plus recency when it is small enough to stat everything) and the rest is counted per folder.
 */
export async function summarizeRepo(root: string, options: RepoSummaryOptions = {}): Promise<string> {
  const maxEntries = Math.max(1, options.maxEntries ?? SUMMARY_DEFAULTS.maxEntries);
  const maxBytes = Math.max(200, options.maxBytes ?? SUMMARY_DEFAULTS.maxBytes);
  const listed = await listRepoFiles(root, { limit: SUMMARY_DEFAULTS.maxFiles });
  const entries: Entry[] = listed.files.map((file) => ({ file, score: pathScore(file), size: null, mtimeMs: null }));
  if (entries.length <= SUMMARY_DEFAULTS.statAllBelow) {
    await statAll(root, entries);
    const newest = Math.max(0, ...entries.map((entry) => entry.mtimeMs ?? 0));
    for (const entry of entries) if (entry.mtimeMs && newest - entry.mtimeMs < 7 * 86_400_000) entry.score += 10;
  }
  const ranked = [...entries].sort((a, b) => b.score - a.score || (a.file < b.file ? -1 : 1));
  const chosen = ranked.slice(0, maxEntries);
  if (chosen.some((entry) => entry.size === null))
    await statAll(
      root,
      chosen.filter((entry) => entry.size === null),
    );
  const lines = new Map<string, string>();
  for (const entry of chosen) {
    const language = languageOf(entry.file);
    const head = language && (entry.size ?? 0) > 0 ? await headOf(path.join(root, entry.file)) : '';
    const doc = head ? firstDocLine(entry.file, head) : null;
    const note = [language, entry.size === null ? null : formatSize(entry.size)].filter(Boolean).join(', ');
    lines.set(entry.file, `${entry.file} — ${note || 'file'}${doc ? `: ${doc}` : ''}`);
  }
  const header =
    chosen.length < entries.length || listed.truncated
      ? `${listed.truncated ? 'more than ' : ''}${entries.length} files; the ${chosen.length} most important are listed, the rest counted per folder`
      : `${entries.length} files`;
  // Entries are admitted in rank order (the least important drop first), then printed sorted by path.
  const budget = Math.floor(maxBytes * 0.85) - Buffer.byteLength(header) - 1;
  const admitted: string[] = [];
  let used = 0;
  for (const entry of chosen) {
    const size = Buffer.byteLength(lines.get(entry.file) as string) + 1;
    if (used + size > budget) continue;
    admitted.push(entry.file);
    used += size;
  }
  return assemble(header, admitted.sort(), lines, omittedByFolder(entries, new Set(admitted)), maxBytes);
}

function omittedByFolder(entries: Entry[], shown: Set<string>): string[] {
  const folders = new Map<string, { count: number; kinds: Map<string, number> }>();
  for (const entry of entries) {
    if (shown.has(entry.file)) continue;
    const parts = entry.file.split('/');
    const folder = parts.length > 2 ? `${parts.slice(0, 2).join('/')}/` : parts.length === 2 ? `${parts[0]}/` : './';
    const record = folders.get(folder) ?? { count: 0, kinds: new Map() };
    const ext = path.posix.extname(entry.file).slice(1) || 'other';
    record.count++;
    record.kinds.set(ext, (record.kinds.get(ext) ?? 0) + 1);
    folders.set(folder, record);
  }
  return [...folders.entries()]
    .sort((a, b) => b[1].count - a[1].count || (a[0] < b[0] ? -1 : 1))
    .map(([folder, record]) => {
      const kinds = [...record.kinds.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([ext, count]) => `${ext} ${count}`);
      return `${folder} — ${record.count} more file${record.count === 1 ? '' : 's'} (${kinds.join(', ')})`;
    });
}

function assemble(
  header: string,
  order: string[],
  lines: Map<string, string>,
  omitted: string[],
  maxBytes: number,
): string {
  const out = [header];
  let bytes = Buffer.byteLength(header) + 1;
  let dropped = 0;
  for (const file of order) {
    const line = lines.get(file) as string;
    const size = Buffer.byteLength(line) + 1;
    if (bytes + size > maxBytes - 120) {
      dropped++;
      continue;
    }
    out.push(line);
    bytes += size;
  }
  for (const line of omitted) {
    const size = Buffer.byteLength(line) + 1;
    if (bytes + size > maxBytes - 60) {
      dropped++;
      continue;
    }
    out.push(line);
    bytes += size;
  }
  if (dropped > 0) out.push(`(${dropped} more lines left out to stay within ${maxBytes} bytes)`);
  return out.join('\n');
}
