import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LatheError } from '../../../../shared/errors';
import { defaultDataDir } from '../../dataDir';
import { inspectGguf, type InspectOptions, type ModelEntry } from './inspectGguf';

/** Model folders in search order: `<data dir>/models`, folders from settings, then `LATHE_MODELS_DIR`. */
export function defaultModelFolders(
  options: { env?: NodeJS.ProcessEnv; settingsFolders?: readonly string[] } = {},
): string[] {
  const env = options.env ?? process.env;
  const fromEnv = (env.LATHE_MODELS_DIR ?? '').split(path.delimiter).filter((folder) => folder.trim() !== '');
  const folders = [path.join(defaultDataDir(env), 'models'), ...(options.settingsFolders ?? []), ...fromEnv].map(
    (folder) => path.resolve(expandHome(folder)),
  );
  return [...new Set(folders)];
}

function expandHome(folder: string): string {
  return folder === '~' || folder.startsWith(`~${path.sep}`) || folder.startsWith('~/')
    ? path.join(os.homedir(), folder.slice(1))
    : folder;
}

const MAX_DEPTH = 4;

/** Every `*.gguf` under the folders (publisher/model/file layouts included), sorted by path. */
async function findGgufFiles(folder: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string, depth: number) => {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(dir, { withFileTypes: true });
    } catch {
      // catch-ok: a model folder that is absent or cannot be listed offers no models to pick
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.name.startsWith('.')) continue;
      if (entry.isDirectory() && depth < MAX_DEPTH) await walk(full, depth + 1);
      else if ((entry.isFile() || entry.isSymbolicLink()) && entry.name.toLowerCase().endsWith('.gguf'))
        found.push(full);
    }
  };
  await walk(folder, 0);
  return found.sort();
}

/** Later parts of split models are listed through their first part, not on their own. */
const LATER_SPLIT_PART = /-(?!00001)\d{5}-of-\d{5}\.gguf$/i;

/** Lists every GGUF in the folders; unusable files are listed as rejected with their reason. */
export async function scanModelFolders(
  folders: readonly string[],
  options: InspectOptions = {},
): Promise<ModelEntry[]> {
  // Keyed by real path so a linked model is listed once, under the path it was found at.
  const files = new Map<string, string>();
  for (const folder of folders) {
    for (const file of await findGgufFiles(path.resolve(folder))) {
      const real = await realOrSelf(file);
      if (!files.has(real)) files.set(real, file);
    }
  }
  const candidates = [...files.values()].filter((file) => !LATER_SPLIT_PART.test(file)).sort();
  const entries: ModelEntry[] = [];
  for (const file of candidates) entries.push(await inspectGguf(file, options));
  return entries;
}

async function realOrSelf(file: string): Promise<string> {
  try {
    return await fs.promises.realpath(file);
  } catch {
    // catch-ok: a path that cannot be resolved is shown as given
    return file;
  }
}

export interface ImportOptions extends InspectOptions {
  /** Folder to import into (default: `<data dir>/models`). */
  folder?: string;
  /** `copy` (default) duplicates the file; `link` makes a symbolic link to where it already is. */
  mode?: 'copy' | 'link';
  env?: NodeJS.ProcessEnv;
}

/**
 * Brings a user-picked GGUF into the model folder. The file is inspected first: a rejected file is
 * refused with its reason, and an existing file of the same name is never overwritten.
 */
export async function importModel(sourcePath: string, options: ImportOptions = {}): Promise<ModelEntry> {
  const source = path.resolve(sourcePath);
  const inspected = await inspectGguf(source, options);
  if (inspected.status === 'rejected') {
    throw new LatheError('MODEL_REJECTED', `${inspected.fileName} cannot be used: ${inspected.reason}`, {
      path: source,
      reason: inspected.reason,
    });
  }
  const folder = path.resolve(options.folder ?? defaultModelFolders({ env: options.env ?? process.env })[0] ?? '.');
  await fs.promises.mkdir(folder, { recursive: true });
  const target = path.join(folder, path.basename(source));
  if ((await realOrSelf(target)) === (await realOrSelf(source))) return inspected;
  try {
    if (options.mode === 'link') await fs.promises.symlink(source, target);
    else await fs.promises.copyFile(source, target, fs.constants.COPYFILE_EXCL);
  } catch (error) {
    if (typeof error === 'object' && error !== null && 'code' in error && error.code === 'EEXIST') {
      throw new LatheError('MODEL_EXISTS', `${path.basename(source)} already exists in ${folder}`, { path: target });
    }
    await fs.promises.rm(target, { force: true });
    throw new LatheError(
      'IMPORT_FAILED',
      `could not ${options.mode === 'link' ? 'link' : 'copy'} ${source} to ${folder}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return inspectGguf(target, options);
}
