/**
 * Small models write unified diffs with wrong hunk counts, missing line numbers, blank context lines
 * without their leading space and code fences around them. This pass repairs exactly those, so
 * the parser sees what the model meant; the hunks' content is never changed.
 */
export function repairDiffText(raw: string): string {
  const lines = stripFences(raw).replace(/\r\n/g, '\n').split('\n');
  while (lines.length > 0 && (lines.at(-1) as string).trim() === '') lines.pop();
  const out: string[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] as string;
    if (!line.startsWith('@@')) {
      out.push(line);
      index++;
      continue;
    }
    const body: string[] = [];
    index++;
    while (index < lines.length && !isHunkEnd(lines, index)) {
      const bodyLine = lines[index] as string;
      body.push(bodyLine === '' ? ' ' : bodyLine);
      index++;
    }
    while (body.length > 0 && body.at(-1) === ' ' && isFileEnd(lines, index)) body.pop();
    out.push(rewriteHeader(line, body), ...body);
  }
  return `${out.join('\n')}\n`;
}

function stripFences(raw: string): string {
  const trimmed = raw.trim();
  const fenced = /^```[a-z]*\n([\s\S]*?)\n?```$/i.exec(trimmed);
  return fenced ? (fenced[1] as string) : raw;
}

function isHunkEnd(lines: string[], index: number): boolean {
  const line = lines[index] as string;
  if (line.startsWith('@@') || line.startsWith('diff --git ')) return true;
  // jsdiff and svn-style multi-file diffs separate files with `Index: path` and a row of `=`.
  if (line.startsWith('Index: ') || /^={3,}\s*$/.test(line)) return true;
  return line.startsWith('--- ') && (lines[index + 1] ?? '').startsWith('+++ ');
}

function isFileEnd(lines: string[], index: number): boolean {
  return index >= lines.length || !(lines[index] as string).startsWith('@@');
}

function rewriteHeader(header: string, body: string[]): string {
  let removed = 0;
  let added = 0;
  for (const line of body) {
    if (line.startsWith('\\')) continue;
    if (line.startsWith('-')) removed++;
    else if (line.startsWith('+')) added++;
    else {
      removed++;
      added++;
    }
  }
  const numbers = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@(.*)$/.exec(header);
  const oldStart = numbers ? Number(numbers[1]) : removed === 0 ? 0 : 1;
  const newStart = numbers ? Number(numbers[2]) : added === 0 ? 0 : 1;
  const tail = numbers ? (numbers[3] as string) : '';
  return `@@ -${removed === 0 ? 0 : Math.max(oldStart, 1)},${removed} +${added === 0 ? 0 : Math.max(newStart, 1)},${added} @@${tail}`;
}
