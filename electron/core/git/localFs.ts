import fs from 'node:fs';
import type { PromiseFsClient } from 'isomorphic-git';

/**
 * isomorphic-git's file calls, made synchronously behind its promise API. A step's commit and a head
 * lookup read and write a few dozen small files (refs, loose objects, the index); through
 * `fs.promises` each call is a round trip to libuv's thread pool, 65–260 µs on the machines Lathe is
 * measured on, against 3–13 µs done in place (bench/engine.ts, decision 64). Nothing here reads a
 * large file: git's packs are read through the same calls, but once and cached per repository.
 */
function promised<Args extends unknown[], Result>(call: (...args: Args) => Result): (...args: Args) => Promise<Result> {
  return (...args) => {
    try {
      return Promise.resolve(call(...args));
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

const syncCalls = {
  readFile: promised((file: fs.PathLike, options?: { encoding?: BufferEncoding | null } | BufferEncoding | null) =>
    fs.readFileSync(file, options),
  ),
  writeFile: promised((file: fs.PathLike, data: string | Uint8Array, options?: fs.WriteFileOptions) =>
    fs.writeFileSync(file, data, options),
  ),
  unlink: promised((file: fs.PathLike) => fs.unlinkSync(file)),
  readdir: promised((folder: fs.PathLike) => fs.readdirSync(folder)),
  mkdir: promised((folder: fs.PathLike, options?: fs.MakeDirectoryOptions) => fs.mkdirSync(folder, options)),
  rmdir: promised((folder: fs.PathLike) => fs.rmdirSync(folder)),
  rm: promised((target: fs.PathLike, options?: fs.RmOptions) => fs.rmSync(target, options)),
  stat: promised((target: fs.PathLike) => fs.statSync(target)),
  lstat: promised((target: fs.PathLike) => fs.lstatSync(target)),
  readlink: promised((target: fs.PathLike) => fs.readlinkSync(target)),
  symlink: promised((target: fs.PathLike, file: fs.PathLike) => fs.symlinkSync(target, file)),
  chmod: promised((target: fs.PathLike, mode: fs.Mode) => fs.chmodSync(target, mode)),
};

/** The `fs` to hand isomorphic-git in the engine's hot path. */
export const localFs: PromiseFsClient = { promises: syncCalls };

type SyncFsCalls =
  'access' | 'lstat' | 'stat' | 'readFile' | 'readlink' | 'readdir' | 'mkdir' | 'writeFile' | 'rename' | 'rm';

/**
 * The same calls as `fs.promises` for the git layer's own hot path, done in place. The cast only
 * restores the overloads inference drops: each entry calls the sync twin with the same arguments.
 */
export const syncFs = {
  access: promised(fs.accessSync),
  lstat: promised(fs.lstatSync),
  stat: promised(fs.statSync),
  readFile: promised(fs.readFileSync),
  readlink: promised(fs.readlinkSync),
  readdir: promised(fs.readdirSync),
  mkdir: promised(fs.mkdirSync),
  writeFile: promised(fs.writeFileSync),
  rename: promised(fs.renameSync),
  rm: promised(fs.rmSync),
} as unknown as Pick<typeof fs.promises, SyncFsCalls>;
