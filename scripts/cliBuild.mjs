// The built CLI: `electron/core/cli/main.ts` bundled into one ES module (out/cli/lathe.mjs), beside a
// manifest of every source file that went into it. `bin/lathe.mjs` runs the bundle, and rebuilds it
// first when any of those files changed (or the bundle is missing), so an edited .ts file is never
// silently ignored. `scripts/dist.mjs` ships the same bundle in the installer.
// This module is imported at every CLI start: only node: built-ins at the top; vite is loaded to build.
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const BUNDLE_NAME = 'lathe.mjs';
export const MANIFEST_NAME = 'lathe.inputs.json';
const CLI_ENTRY = 'virtual:lathe-cli';
const CLI_ENTRY_ID = `\0${CLI_ENTRY}`;
/** Bumped when the build itself changes shape, so older bundles are rebuilt. */
const BUILD_FORMAT = 3;
/** Chunks of earlier builds are kept this long: a running `lathe serve` may still load its own lazily. */
const OLD_CHUNK_MS = 24 * 60 * 60 * 1000;

export function defaultOutDir(root = ROOT) {
  return path.join(root, 'out', 'cli');
}

function fileStamp(file) {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat ? { mtimeMs: stat.mtimeMs, size: stat.size } : null;
}

/**
 * Why the bundle in `outDir` cannot be used as it is, or null when it is current. Compares each
 * recorded input's mtime and size with the file's now (any change, either way, counts).
 */
export function staleReason(root = ROOT, outDir = defaultOutDir(root)) {
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(outDir, MANIFEST_NAME), 'utf8'));
  } catch {
    return 'no built CLI yet';
  }
  if (manifest.format !== BUILD_FORMAT || !Array.isArray(manifest.inputs)) return 'the build format changed';
  const bundle = fileStamp(path.join(outDir, BUNDLE_NAME));
  if (!bundle || bundle.size !== manifest.bundleSize) return 'the bundle is missing or was changed';
  for (const chunk of manifest.chunks ?? []) if (!fs.existsSync(path.join(outDir, chunk))) return `${chunk} is missing`;
  for (const input of manifest.inputs) {
    const now = fileStamp(path.resolve(root, input.file));
    if (!now) return `${input.file} was removed`;
    if (now.mtimeMs !== input.mtimeMs || now.size !== input.size) return `${input.file} changed`;
  }
  return null;
}

function writeAtomically(file, text) {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, text);
  fs.renameSync(temporary, file);
}

/**
 * Bundles the CLI into `outDir`: the entry `lathe.mjs` and content-named `chunk-*.mjs` beside it (the
 * same folder: the core finds prompts/ and resources/ two levels up from its code), one per lazily
 * imported command or runtime, so `lathe --help` loads no model runtime. Packages stay imports,
 * resolved from the app's node_modules at run time. Chunks are written first (a name is its content),
 * then the entry, then the manifest, each by rename: a concurrent start sees either the old set, or a
 * new entry with the old manifest (stale, so it rebuilds), never old code marked current.
 */
export async function buildCli({ root = ROOT, outDir = defaultOutDir(root) } = {}) {
  const { build } = await import('vite');
  const mainSource = path.join(root, 'electron', 'core', 'cli', 'main.ts');
  const entry = {
    name: 'lathe-cli-entry',
    enforce: 'pre',
    resolveId: (id) => (id === CLI_ENTRY ? CLI_ENTRY_ID : null),
    load: (id) =>
      id === CLI_ENTRY_ID
        ? `import { runCli, processIo } from ${JSON.stringify(mainSource)};\nconst io = processIo();\nprocess.exitCode = await runCli(process.argv.slice(2), io);\nio.dispose?.();\n`
        : null,
  };
  const result = await build({
    configFile: false,
    root,
    logLevel: 'warn',
    plugins: [entry],
    build: {
      ssr: true,
      write: false,
      target: 'node20',
      minify: false,
      rolldownOptions: {
        input: CLI_ENTRY,
        output: { format: 'es', entryFileNames: BUNDLE_NAME, chunkFileNames: 'chunk-[name]-[hash].mjs' },
      },
    },
  });
  const chunks = (Array.isArray(result) ? result : [result])
    .flatMap((item) => item.output)
    .filter((item) => item.type === 'chunk');
  const entryChunk = chunks.find((item) => item.fileName === BUNDLE_NAME);
  if (!entryChunk) throw new Error(`the CLI build produced no ${BUNDLE_NAME}`);
  const lazy = chunks.filter((item) => item !== entryChunk);
  const sources = new Set(
    chunks
      .flatMap((item) => item.moduleIds)
      .filter((id) => !id.startsWith('\0') && path.isAbsolute(id) && fs.existsSync(id)),
  );
  const inputs = [...sources, import.meta.filename].map((file) => ({
    file: path.relative(root, file),
    ...fileStamp(file),
  }));
  fs.mkdirSync(outDir, { recursive: true });
  for (const chunk of lazy) {
    const file = path.join(outDir, chunk.fileName);
    if (!fs.existsSync(file)) writeAtomically(file, chunk.code);
  }
  writeAtomically(path.join(outDir, BUNDLE_NAME), entryChunk.code);
  const manifest = {
    format: BUILD_FORMAT,
    builtAt: new Date().toISOString(),
    bundleSize: Buffer.byteLength(entryChunk.code),
    chunks: lazy.map((chunk) => chunk.fileName),
    inputs,
  };
  writeAtomically(path.join(outDir, MANIFEST_NAME), `${JSON.stringify(manifest, null, 1)}\n`);
  removeOldChunks(outDir, new Set(manifest.chunks));
  return { bundle: path.join(outDir, BUNDLE_NAME), chunks: manifest.chunks, inputs: inputs.length };
}

function removeOldChunks(outDir, current) {
  for (const name of fs.readdirSync(outDir)) {
    if (!name.startsWith('chunk-') || current.has(name)) continue;
    const file = path.join(outDir, name);
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat && Date.now() - stat.mtimeMs > OLD_CHUNK_MS) fs.rmSync(file, { force: true });
  }
}

/** The bundle to run: built first when missing or stale, saying so on `log` (stderr in the bin). */
export async function ensureCli({ root = ROOT, outDir = defaultOutDir(root), log = () => {} } = {}) {
  const reason = staleReason(root, outDir);
  if (reason !== null) {
    log(`lathe: building the CLI (${reason})…`);
    await buildCli({ root, outDir });
  }
  return path.join(outDir, BUNDLE_NAME);
}
