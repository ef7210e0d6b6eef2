import path from 'node:path';

const LANGUAGES: Record<string, string> = {
  '.py': 'Python',
  '.pyi': 'Python',
  '.js': 'JavaScript',
  '.mjs': 'JavaScript',
  '.cjs': 'JavaScript',
  '.jsx': 'JavaScript (JSX)',
  '.ts': 'TypeScript',
  '.mts': 'TypeScript',
  '.cts': 'TypeScript',
  '.tsx': 'TypeScript (TSX)',
  '.go': 'Go',
  '.rs': 'Rust',
  '.java': 'Java',
  '.kt': 'Kotlin',
  '.rb': 'Ruby',
  '.php': 'PHP',
  '.c': 'C',
  '.h': 'C header',
  '.cc': 'C++',
  '.cpp': 'C++',
  '.hpp': 'C++ header',
  '.cs': 'C#',
  '.swift': 'Swift',
  '.scala': 'Scala',
  '.sh': 'Shell',
  '.bash': 'Shell',
  '.zsh': 'Shell',
  '.md': 'Markdown',
  '.rst': 'reStructuredText',
  '.txt': 'Text',
  '.json': 'JSON',
  '.yaml': 'YAML',
  '.yml': 'YAML',
  '.toml': 'TOML',
  '.ini': 'INI',
  '.cfg': 'Config',
  '.xml': 'XML',
  '.html': 'HTML',
  '.css': 'CSS',
  '.scss': 'SCSS',
  '.sql': 'SQL',
  '.lua': 'Lua',
  '.vue': 'Vue',
  '.svelte': 'Svelte',
  '.dart': 'Dart',
  '.ex': 'Elixir',
  '.exs': 'Elixir',
  '.erl': 'Erlang',
  '.hs': 'Haskell',
  '.ml': 'OCaml',
  '.r': 'R',
  '.jl': 'Julia',
  '.proto': 'Protobuf',
  '.graphql': 'GraphQL',
  '.tf': 'Terraform',
};
const NAMED: Record<string, string> = {
  Makefile: 'Makefile',
  Dockerfile: 'Dockerfile',
  'CMakeLists.txt': 'CMake',
  Gemfile: 'Ruby (Gemfile)',
  Rakefile: 'Ruby',
};

export function languageOf(file: string): string | null {
  const base = path.posix.basename(file);
  return NAMED[base] ?? LANGUAGES[path.posix.extname(base).toLowerCase()] ?? null;
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const NOISE = /copyright|licen[cs]e|spdx|eslint|prettier|@ts-|noqa|pylint|type: ignore|-\*-|^!|^\/|^use strict|^#!/i;

function clean(line: string): string {
  const flat = line.replace(/\s+/g, ' ').trim();
  return flat.length > 90 ? `${flat.slice(0, 89)}…` : flat;
}

/**
 * The first line that says what a file is: a Markdown heading, a Python docstring, a leading
 * comment, or package.json's description. Licence headers and tool directives are skipped.
 */
export function firstDocLine(file: string, head: string): string | null {
  const base = path.posix.basename(file);
  if (base === 'package.json') {
    const description = /"description"\s*:\s*"([^"]{1,200})"/.exec(head)?.[1];
    return description ? clean(description) : null;
  }
  const ext = path.posix.extname(base).toLowerCase();
  const lines = head.split('\n').slice(0, 40);
  if (ext === '.md' || ext === '.rst' || ext === '.txt') {
    const line = lines.find((candidate) => /[A-Za-z]/.test(candidate) && !/^[=\-~`<!]/.test(candidate.trim()));
    return line ? clean(line.replace(/^#+\s*/, '')) : null;
  }
  if (ext === '.py' || ext === '.pyi') {
    const docstring = /^\s*(?:[rRuU]?)("""|''')\s*([^\n]*?)\s*(?:\1|$)/m.exec(
      lines.filter((line) => !line.startsWith('#')).join('\n'),
    );
    if (docstring?.[2]) return clean(docstring[2]);
  }
  for (const line of lines) {
    const trimmed = line.trim();
    const comment = /^(?:\/\/+|#+|--|;+|\/\*+|\*+(?!\/))\s*(.*?)\s*(?:\*\/)?$/.exec(trimmed);
    if (!comment) {
      if (trimmed === '' || trimmed === '*/' || /^(['"])use strict\1;?$/.test(trimmed) || trimmed.startsWith('#!'))
        continue;
      break;
    }
    const body = comment[1] ?? '';
    if (body.length < 4 || NOISE.test(body) || /^@\w+/.test(body)) continue;
    return clean(body);
  }
  return null;
}
