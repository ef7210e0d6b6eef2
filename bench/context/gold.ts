import type { CorpusTask } from '../../electron/core/eval/corpus/index';
import type { RepoMap } from '../../electron/core/context/index';

/** A stretch of a gold file the fix changes, named by the function or method around it. */
export interface GoldSpan {
  file: string;
  name: string;
  start: number;
  end: number;
}

/** Lines of the starting (old) side each hunk of a unified diff touches, per file. */
export function changedOldLines(patch: string): Map<string, number[]> {
  const changed = new Map<string, number[]>();
  let file: string | null = null;
  let old = 0;
  for (const line of patch.split('\n')) {
    if (line.startsWith('--- ')) continue;
    if (line.startsWith('+++ ')) {
      file = line.slice(4).replace(/^b\//, '').trim();
      continue;
    }
    const hunk = /^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@/.exec(line);
    if (hunk) {
      old = Number(hunk[1]);
      continue;
    }
    if (!file) continue;
    const lines = changed.get(file) ?? [];
    if (line.startsWith('-')) lines.push(old++);
    else if (line.startsWith('+')) lines.push(Math.max(1, old - 1));
    else if (line.startsWith(' ')) old++;
    changed.set(file, lines);
  }
  return changed;
}

/**
 * The gold functions: the innermost function or method (from the symbol map of the starting state)
 * around each changed line; a change outside any function is its own few lines.
 */
export function goldSpans(task: CorpusTask, map: RepoMap): GoldSpan[] {
  const spans = new Map<string, GoldSpan>();
  for (const [file, lines] of changedOldLines(task.gold_patch)) {
    const symbols = (map.byPath.get(file)?.symbols ?? []).filter(
      (symbol) => symbol.kind === 'function' || symbol.kind === 'method',
    );
    for (const line of lines) {
      const around = symbols
        .filter((symbol) => symbol.start <= line && line <= symbol.end)
        .sort((a, b) => a.end - a.start - (b.end - b.start))[0];
      const span = around
        ? { file, name: around.name, start: around.start, end: around.end }
        : { file, name: `${file}:${line}`, start: Math.max(1, line - 2), end: line + 2 };
      const key = `${file}#${span.name}`;
      const existing = spans.get(key);
      if (existing && !around) {
        existing.start = Math.min(existing.start, span.start);
        existing.end = Math.max(existing.end, span.end);
      } else spans.set(key, span);
    }
  }
  return [...spans.values()];
}
