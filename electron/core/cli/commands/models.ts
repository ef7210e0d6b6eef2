import fs from 'node:fs';
import path from 'node:path';
import { defaultModelFolders, expandHome, scanModelFolders, type ModelEntry } from '../../llm';
import { parseCommandArgs, UsageError, wantsHelp, type Command } from '../command';
import { ExitCode } from '../exitCodes';

const usage = `Usage: lathe models [--dir D]... [--json]

Lists the GGUF models Lathe can use, read from each file's header (nothing is loaded).
  --dir D   scan this folder instead of the defaults (repeatable)
  --json    print a JSON array of entries (documented in docs/models.md)
Default folders: <LATHE_HOME or ~/.lathe>/models, then LATHE_MODELS_DIR (${path.delimiter}-separated).
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
    const folders = values.dir && values.dir.length > 0 ? values.dir.map((dir) => path.resolve(io.cwd, expandHome(dir))) : defaultModelFolders({ env: io.env });
    // A folder the user named must be there: an empty list would look like "no models" when it is a typo.
    for (const folder of values.dir ? folders : []) if (!fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--dir: ${folder} is not a folder`);
    const entries = await scanModelFolders(folders);
    if (values.json) {
      io.out(JSON.stringify(entries, null, 2));
      return ExitCode.success;
    }
    if (entries.length === 0) {
      io.out(`No GGUF files in ${folders.join(', ')}.`);
      return ExitCode.success;
    }
    for (const line of formatModelTable(entries)) io.out(line);
    const usable = entries.filter((entry) => entry.status === 'ok').length;
    io.out('');
    io.out(`${usable} usable, ${entries.length - usable} rejected — in ${folders.join(', ')}`);
    return ExitCode.success;
  },
};

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
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
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
