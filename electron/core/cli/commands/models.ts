import fs from 'node:fs';
import path from 'node:path';
import { defaultModelFolders, expandHome, scanModelFolders, type ModelEntry } from '../../llm';
import { setAsideNotice } from '../../../../shared/schemas/settings';
import { defaultDataDir } from '../../dataDir';
import { SettingsStore } from '../../settings/settingsStore';
import { parseCommandArgs, UsageError, wantsHelp, type CliIo, type Command } from '../command';
import { ExitCode } from '../exitCodes';

const usage = `Usage: lathe models [--dir D]... [--json]

Lists the GGUF models Lathe can use, read from each file's header (nothing is loaded).
  --dir D   scan this folder instead of the defaults (repeatable)
  --json    print a JSON array of entries (documented in docs/models.md)
Default folders: <LATHE_HOME or ~/.lathe>/models, the model folders in settings, then LATHE_MODELS_DIR
(${path.delimiter}-separated). With no usable model it says how to add one.
Files that cannot be used are listed as rejected with the reason.`;

export const modelsCommand: Command = {
  name: 'models',
  summary: 'list the GGUF models Lathe can use',
  usage,
  async run(args, io) {
    if (wantsHelp(args)) {
      io.out(usage);
      return ExitCode.success;
    }
    const { values } = parseCommandArgs(args, { dir: { type: 'string', multiple: true }, json: { type: 'boolean' } });
    const given = values.dir && values.dir.length > 0;
    const folders = given ? (values.dir ?? []).map((dir) => path.resolve(io.cwd, expandHome(dir))) : libraryFolders(io);
    // A folder the user named must be there: an empty list would look like "no models" when it is a typo.
    for (const folder of given ? folders : [])
      if (!fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory())
        throw new UsageError(`--dir: ${folder} is not a folder`);
    const entries = await scanModelFolders(folders);
    if (values.json) {
      io.out(JSON.stringify(entries, null, 2));
      return ExitCode.success;
    }
    const usable = entries.filter((entry) => entry.status === 'ok').length;
    if (entries.length === 0) io.out(`No GGUF files in ${folders.join(', ')}.`);
    else {
      for (const line of formatModelTable(entries)) io.out(line);
      io.out('');
      io.out(`${usable} usable, ${entries.length - usable} rejected — in ${folders.join(', ')}`);
      if (usable > 0) io.out(WINDOW_NOTE);
    }
    if (usable === 0) for (const line of howToAddModels(folders, io.env, given === true)) io.out(line);
    return ExitCode.success;
  },
};

/** The library `lathe run` and the window use: the data folder's, the settings' folders, LATHE_MODELS_DIR. */
function libraryFolders(io: CliIo): string[] {
  const store = new SettingsStore(defaultDataDir(io.env));
  const settings = store.read();
  if (store.setAside) io.err(`warning: ${setAsideNotice(store.setAside)}`);
  return defaultModelFolders({ env: io.env, settingsFolders: settings.modelFolders });
}

/** An empty library is where a first run stops: say where Lathe looked, how to add a model, and what runs without one. */
export function howToAddModels(folders: readonly string[], env: NodeJS.ProcessEnv, fromDir: boolean): string[] {
  const library = path.join(defaultDataDir(env), 'models');
  const why = fromDir
    ? 'the --dir folders'
    : "the library, the model folders in the app's settings, then LATHE_MODELS_DIR";
  return [
    '',
    `Looked in: ${folders.join(', ')} (${why}).`,
    'To add a model:',
    `  - copy a .gguf file into ${library} (which GGUF suits your memory, with checksums: docs/model-picks.md), or`,
    `  - point Lathe at the folder that has them: LATHE_MODELS_DIR=DIR (folders separated by ${path.delimiter}) or a model folder in the app's settings; \`lathe models --dir DIR\` looks there once, or`,
    '  - give a file directly: lathe run --model llama:PATH.gguf',
    'Without a model: `lathe demo` runs the bundled example on a labelled replay transcript (the replay provider, --model replay:FILE.json; docs/replay-format.md).',
  ];
}

/** CONTEXT is what a model was trained on, not what a run gives it (decision 92). */
export const WINDOW_NOTE =
  'CONTEXT is the trained window. A role without context_size gets 8192 tokens of it when memory holds the weights and two such contexts, else 4096 (all of it when trained on less): each prompt token is prefill time. `lathe doctor` says which, per model, and why; set context_size for more (docs/models.md).';

export function formatModelTable(entries: readonly ModelEntry[]): string[] {
  const header = ['NAME', 'ARCH', 'PARAMS', 'QUANT', 'SIZE', 'CONTEXT', 'STATUS'];
  const rows = entries.map((entry) => [
    entry.fileName,
    entry.architecture ?? '-',
    entry.parameters === null ? '-' : formatCount(entry.parameters),
    entry.quantization ?? '-',
    formatSize(entry.sizeBytes),
    entry.contextLength === null ? '-' : String(entry.contextLength),
    entry.status === 'ok' ? 'ok' : `rejected: ${entry.reason ?? 'unknown reason'}`,
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const format = (row: string[]) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [format(header), ...rows.map(format)];
}

function formatCount(count: number): string {
  if (count >= 1e9) return `${(count / 1e9).toFixed(1)}B`;
  if (count >= 1e6) return `${(count / 1e6).toFixed(count >= 1e8 ? 0 : 1)}M`;
  if (count >= 1e3) return `${(count / 1e3).toFixed(0)}K`;
  return String(count);
}

function formatSize(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(0)} KiB`;
  return `${bytes} B`;
}
