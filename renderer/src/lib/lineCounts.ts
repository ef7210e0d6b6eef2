import { diffLines } from 'diff';

export interface LineCounts {
  added: number;
  removed: number;
}

function lineCount(text: string): number {
  if (text === '') return 0;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}

/** Added and removed lines between two versions of a file (null: the file does not exist there). */
export function countChangedLines(before: string | null, after: string | null): LineCounts {
  if (before === null) return { added: lineCount(after ?? ''), removed: 0 };
  if (after === null) return { added: 0, removed: lineCount(before) };
  if (before === after) return { added: 0, removed: 0 };
  let added = 0;
  let removed = 0;
  for (const part of diffLines(before, after)) {
    if (part.added) added += part.count ?? 0;
    else if (part.removed) removed += part.count ?? 0;
  }
  return { added, removed };
}

const LANGUAGES: Record<string, string> = {
  js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'javascript',
  ts: 'typescript', mts: 'typescript', cts: 'typescript', tsx: 'typescript',
  py: 'python', json: 'json', md: 'markdown', css: 'css', scss: 'scss', html: 'html',
  yml: 'yaml', yaml: 'yaml', sh: 'shell', rs: 'rust', go: 'go', java: 'java', c: 'c', h: 'c',
  cpp: 'cpp', hpp: 'cpp', rb: 'ruby', php: 'php', toml: 'ini', ini: 'ini', xml: 'xml', sql: 'sql',
};

/** Monaco's language id for a path, by extension ('plaintext' when unknown). */
export function languageOf(path: string): string {
  const name = path.split('/').pop() ?? path;
  if (name === 'Dockerfile') return 'dockerfile';
  const extension = name.includes('.') ? (name.split('.').pop() ?? '').toLowerCase() : '';
  return LANGUAGES[extension] ?? 'plaintext';
}
