import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Language, Parser } from 'web-tree-sitter';

/** Languages whose tree-sitter grammar ships in @vscode/tree-sitter-wasm, by file extension. */
const GRAMMAR_BY_EXTENSION: Record<string, string> = {
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  py: 'python',
  pyi: 'python',
  go: 'go',
  rs: 'rust',
  java: 'java',
  rb: 'ruby',
  cs: 'c-sharp',
  cpp: 'cpp',
  cc: 'cpp',
  hpp: 'cpp',
  h: 'cpp',
  c: 'cpp',
  php: 'php',
  sh: 'bash',
  bash: 'bash',
};

export type GrammarName = string;

export function grammarFor(file: string): GrammarName | null {
  const dot = file.lastIndexOf('.');
  if (dot < 0 || dot < file.lastIndexOf('/')) return null;
  return GRAMMAR_BY_EXTENSION[file.slice(dot + 1).toLowerCase()] ?? null;
}

// Not named `require`: electron-vite's CommonJS shim declares that name at the top of the main bundle.
const resolvePackage = createRequire(import.meta.url);
let runtime: Promise<void> | null = null;
const languages = new Map<GrammarName, Promise<Language>>();

/**
 * The WASM runtime and grammars are read as bytes with fs (no fetch, no network, and readable from an
 * Electron asar archive), each once per process.
 */
function initRuntime(): Promise<void> {
  runtime ??= Parser.init({
    wasmBinary: fs.readFileSync(resolvePackage.resolve('web-tree-sitter/tree-sitter.wasm')),
  }).catch((error: unknown) => {
    runtime = null;
    throw error;
  });
  return runtime;
}

export async function loadLanguage(name: GrammarName): Promise<Language> {
  await initRuntime();
  let language = languages.get(name);
  if (!language) {
    language = Language.load(
      fs.readFileSync(resolvePackage.resolve(`@vscode/tree-sitter-wasm/wasm/tree-sitter-${name}.wasm`)),
    );
    languages.set(name, language);
    language.catch(() => languages.delete(name));
  }
  return language;
}

const parsers = new Map<GrammarName, Parser>();

/** One parser per grammar, reused: creating one per file costs more than parsing a small file. */
export async function parserFor(name: GrammarName): Promise<Parser> {
  const existing = parsers.get(name);
  if (existing) return existing;
  const language = await loadLanguage(name);
  const parser = new Parser();
  parser.setLanguage(language);
  parsers.set(name, parser);
  return parser;
}
