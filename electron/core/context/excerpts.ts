import { estimateTokens } from '../llm/results';
import type { RankedFile } from './rank';

const EXCERPT_WINDOW = 30;

export const itemTokens = (text: string) => estimateTokens(text) + 2;

export function fence(path: string, note: string, body: string): string {
  return `### ${path}${note}\n\`\`\`\n${body}\n\`\`\`\n`;
}

/** Merges line ranges that touch or overlap. */
function mergeRanges(ranges: [number, number][]): [number, number][] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const range of sorted) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1] + 1) last[1] = Math.max(last[1], range[1]);
    else merged.push([...range]);
  }
  return merged;
}

export function excerptText(path: string, rows: string[], ranges: [number, number][]): string {
  const parts = ranges.map(([start, end]) => rows.slice(start - 1, end).join('\n'));
  const where = ranges.map(([start, end]) => (start === end ? `${start}` : `${start}-${end}`)).join(', ');
  return fence(path, ` (excerpt: lines ${where} of ${rows.length})`, parts.join('\n…\n'));
}

/** The ranges worth showing of a file too big to send whole: the best symbols, or windows round stack-frame lines. */
export function excerptRanges(entry: RankedFile, rows: string[], budget: number, minScore = 0): [number, number][] {
  const chosen: [number, number][] = [];
  let used = 0;
  const tokensOf = (start: number, end: number) => estimateTokens(rows.slice(start - 1, end).join('\n')) + 4;
  const tryAdd = (start: number, end: number): boolean => {
    const cost = tokensOf(start, end);
    if (used + cost > budget) return false;
    chosen.push([start, end]);
    used += cost;
    return true;
  };
  const window = (line: number): [number, number] => [
    Math.max(1, line - EXCERPT_WINDOW),
    Math.min(rows.length, line + EXCERPT_WINDOW),
  ];
  const scored = entry.symbols.filter((ranked) => ranked.score > minScore);
  for (const { symbol } of scored) {
    if (chosen.some(([start, end]) => symbol.start >= start && symbol.end <= end)) continue;
    if (tryAdd(symbol.start, symbol.end)) continue;
    // Too big whole: its head and the lines the query points at inside it.
    const inside = entry.lines.filter((line) => line >= symbol.start && line <= symbol.end);
    const head: [number, number] = [symbol.start, Math.min(symbol.end, symbol.start + 2 * EXCERPT_WINDOW)];
    for (const range of [...inside.map(window), head]) tryAdd(...range);
  }
  for (const line of entry.lines)
    if (!chosen.some(([start, end]) => line >= start && line <= end)) tryAdd(...window(line));
  return mergeRanges(chosen);
}
