const LANGUAGES: Record<string, string> = {
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'typescript',
  py: 'python',
  json: 'json',
  md: 'markdown',
  css: 'css',
  scss: 'scss',
  html: 'html',
  yml: 'yaml',
  yaml: 'yaml',
  sh: 'shell',
  rs: 'rust',
  go: 'go',
  java: 'java',
  c: 'c',
  h: 'c',
  cpp: 'cpp',
  hpp: 'cpp',
  rb: 'ruby',
  php: 'php',
  toml: 'ini',
  ini: 'ini',
  xml: 'xml',
  sql: 'sql',
};

/** Monaco's language id for a path, by extension ('plaintext' when unknown). */
export function languageOf(path: string): string {
  const name = path.split('/').pop() ?? path;
  if (name === 'Dockerfile') return 'dockerfile';
  const extension = name.includes('.') ? (name.split('.').pop() ?? '').toLowerCase() : '';
  return LANGUAGES[extension] ?? 'plaintext';
}
