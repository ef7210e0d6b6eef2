import fs from 'node:fs';
import path from 'node:path';

/**
 * A stand-in Electron distribution for electron-builder's `electronDist`: the folder Electron's own
 * zip unpacks to, with an `electron` executable that can only do what a test needs from the packaged
 * app: run a script in Node mode (`ELECTRON_RUN_AS_NODE=1`), reading the app from its asar archive.
 * Electron serves `app.asar/...` paths from the archive (and `app.asar.unpacked/...` for unpacked
 * entries); the stand-in shows the archive as a folder beside it (`app.asar.view/`: packed files
 * extracted, unpacked ones linked to the real files), so the packaged code resolves its paths the
 * same way relative to its own location. With LATHE_STAND_IN_READS=FILE it logs every file read there.
 */
export function makeStandInElectron(dir: string, appRoot: string): string {
  const dist = path.join(dir, 'electron-dist');
  fs.mkdirSync(path.join(dist, 'resources'), { recursive: true });
  const runtime = path.join(dir, 'stand-in-runtime.mjs');
  fs.writeFileSync(runtime, runtimeSource(appRoot));
  const launcher = `#!/bin/sh
# Stand-in for Electron, made by a test: Node mode only.
if [ "$ELECTRON_RUN_AS_NODE" != "1" ]; then echo "stand-in Electron: only ELECTRON_RUN_AS_NODE=1 is supported" >&2; exit 64; fi
exec ${JSON.stringify(process.execPath)} ${JSON.stringify(runtime)} "$@"
`;
  fs.writeFileSync(path.join(dist, 'electron'), launcher, { mode: 0o755 });
  const electronVersion = (
    JSON.parse(fs.readFileSync(path.join(appRoot, 'node_modules', 'electron', 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  fs.writeFileSync(path.join(dist, 'version'), electronVersion);
  return dist;
}

function runtimeSource(appRoot: string): string {
  return `import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const asar = createRequire(${JSON.stringify(path.join(appRoot, 'package.json'))})('@electron/asar');
const [script, ...args] = process.argv.slice(2);
const marker = script.indexOf('.asar' + path.sep);
let target = script;
if (marker >= 0) {
  const archive = script.slice(0, marker + 5);
  const view = archive + '.view';
  if (!fs.existsSync(view)) {
    for (const entry of asar.listPackage(archive, { isPack: false })) {
      const relative = entry.slice(1);
      const dest = path.join(view, relative);
      const info = asar.statFile(archive, relative, false);
      if ('files' in info) { fs.mkdirSync(dest, { recursive: true }); continue; }
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      if ('link' in info) fs.symlinkSync(path.relative(path.dirname(relative), info.link), dest);
      else if (info.unpacked) fs.symlinkSync(path.join(archive + '.unpacked', relative), dest);
      else fs.writeFileSync(dest, asar.extractFile(archive, relative, false), { mode: info.executable ? 0o755 : 0o644 });
    }
  }
  target = path.join(view, script.slice(marker + 6));
}
const readLog = process.env.LATHE_STAND_IN_READS;
if (readLog) {
  const readFileSync = fs.readFileSync;
  fs.readFileSync = function (file, ...rest) {
    if (typeof file === 'string') fs.appendFileSync(readLog, path.resolve(file) + '\\n');
    return readFileSync.call(this, file, ...rest);
  };
}
process.argv = [process.argv[0], target, ...args];
await import(pathToFileURL(target).href);
`;
}

/** Copies a tree with hard links (no bytes copied): electron-builder collects dependencies from a real node_modules, not a symlink to one. */
export function linkTree(source: string, target: string): void {
  fs.mkdirSync(target, { recursive: true });
  for (const entry of fs.readdirSync(source, { withFileTypes: true })) {
    const from = path.join(source, entry.name);
    const to = path.join(target, entry.name);
    if (entry.isDirectory()) linkTree(from, to);
    else if (entry.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(from), to);
    else {
      try {
        fs.linkSync(from, to);
      } catch {
        fs.copyFileSync(from, to);
      }
    }
  }
}
