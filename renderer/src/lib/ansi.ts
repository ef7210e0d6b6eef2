import Anser from 'anser';

export interface AnsiSpan {
  text: string;
  /** CSS classes for colours and decorations (`ansi-red-fg`, `ansi-bold`), never inline HTML. */
  className: string;
}

/** One line of terminal output as styled text spans; escape codes other than colours are dropped. */
export function ansiSpans(line: string): AnsiSpan[] {
  const spans: AnsiSpan[] = [];
  for (const entry of Anser.ansiToJson(line, { use_classes: true, remove_empty: true })) {
    const classes: string[] = [];
    if (entry.fg) classes.push(`${entry.fg}-fg`);
    if (entry.bg) classes.push(`${entry.bg}-bg`);
    for (const decoration of entry.decorations) classes.push(`ansi-${decoration}`);
    spans.push({ text: entry.content, className: classes.join(' ') });
  }
  return spans;
}

/** Text with escape codes removed (for searching a report). */
export function stripAnsi(text: string): string {
  return Anser.ansiToText(text);
}

/** Index of the first line that names the failing test, or -1. */
export function firstFailureLine(lines: readonly string[], testId: string | null): number {
  if (!testId) return -1;
  const plain = lines.map(stripAnsi);
  const failing = plain.findIndex((line) => line.includes(testId) && /(✖|not ok|FAIL|failed|Error|×)/i.test(line));
  return failing >= 0 ? failing : plain.findIndex((line) => line.includes(testId));
}
