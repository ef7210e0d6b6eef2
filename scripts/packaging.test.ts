import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { listPackage, statFile } from '@electron/asar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkTree, makeStandInElectron } from '../test-support/standInElectron';
import { makeTempDir } from '../test-support/tempRepo';

/**
 * `npm run dist -- --dir` as a laptop's installer is built, on a scratch copy of this checkout, with
 * a stand-in Electron distribution instead of the Electron zip electron-builder would download.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const supported = process.platform === 'linux' && spawnSync('git', ['--version']).status === 0;
const arch = process.arch;
let work: string;
let project: string;
let appOut: string;
let archive: string;
let built: { status: number | null; output: string };

beforeAll(() => {
  if (!supported) return;
  work = makeTempDir('lathe-dist-');
  project = path.join(work, 'lathe');
  // The checkout as CI has it (tracked and new files, none of the ignored build output), with its installed packages.
  const files = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .stdout.split('\0')
    .filter(Boolean);
  for (const file of files) {
    if (!fs.existsSync(path.join(ROOT, file))) continue;
    fs.mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
    fs.copyFileSync(path.join(ROOT, file), path.join(project, file));
  }
  linkTree(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'));
  const electronDist = makeStandInElectron(work, ROOT);
  const run = spawnSync('npm', ['run', 'dist', '--', '--dir', `-c.electronDist=${electronDist}`], {
    cwd: project,
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
    timeout: 280_000,
  });
  built = { status: run.status, output: `${run.stdout}\n${run.stderr}` };
  appOut = path.join(project, 'dist', arch === 'x64' ? 'linux-unpacked' : `linux-${arch}-unpacked`);
  archive = path.join(appOut, 'resources', 'app.asar');
}, 300_000);

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

function archived(): Set<string> {
  return new Set(listPackage(archive, { isPack: false }).map((entry) => entry.slice(1).split(path.sep).join('/')));
}

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .map((file) => `${dir}/${file.split(path.sep).join('/')}`)
    .filter((file) => fs.statSync(path.join(ROOT, file)).isFile());
}

describe('npm run dist -- --dir (stand-in Electron)', () => {
  it('builds the unpacked app offline: the renamed executable, app.asar and its unpacked folder', (context) => {
    if (!supported) return context.skip('packaging is checked on Linux with git (the installer is built per OS)');
    expect(built.status, built.output.slice(-4000)).toBe(0);
    expect(fs.readdirSync(appOut).sort()).toEqual(['lathe', 'resources', 'version']);
    // electron-builder took the stand-in (renamed to the app's executable), so nothing was downloaded.
    expect(fs.readFileSync(path.join(appOut, 'lathe'), 'utf8')).toContain('stand-in Electron');
    expect(fs.statSync(path.join(appOut, 'lathe')).mode & 0o111).not.toBe(0);
    expect(fs.existsSync(archive) && fs.statSync(archive).isFile()).toBe(true);
  });

  it('packs the bundles, every prompt and the resources, and no sources, tests, maps or eval solutions', (context) => {
    if (!supported) return context.skip('packaging is checked on Linux with git');
    const files = archived();
    for (const file of [
      'package.json',
      'out/main/index.js',
      'out/preload/index.cjs',
      'out/renderer/index.html',
      'out/cli/lathe.mjs',
      'resources/defaults.yaml',
    ])
      expect(files.has(file), file).toBe(true);
    for (const file of [
      ...sourceFiles('prompts'),
      ...sourceFiles('resources/replays'),
      ...sourceFiles('resources/examples'),
    ])
      expect(files.has(file), file).toBe(true);
    const unwanted = [...files].filter(
      (file) =>
        !file.startsWith('node_modules/') &&
        (/\.(test|spec)\.tsx?$|\.map$/.test(file) ||
          /^resources\/eval\/[^/]+\/solution\//.test(file) ||
          /^(electron|shared|renderer|scripts)\//.test(file)),
    );
    expect(unwanted).toEqual([]);
  });

  it("unpacks node-llama-cpp and exactly this platform's llama.cpp binaries as real files beside the archive", (context) => {
    if (!supported) return context.skip('packaging is checked on Linux with git');
    const installed = fs
      .readdirSync(path.join(ROOT, 'node_modules', '@node-llama-cpp'))
      .filter((name) => name === `linux-${arch}` || name.startsWith(`linux-${arch}-`));
    expect(installed.length).toBeGreaterThan(0);
    const unpackedDir = path.join(`${archive}.unpacked`, 'node_modules', '@node-llama-cpp');
    expect(fs.readdirSync(unpackedDir).sort()).toEqual(installed.sort());
    const binaries = fs
      .readdirSync(unpackedDir, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.node'));
    expect(binaries.length).toBeGreaterThan(0);
    for (const file of binaries) {
      expect(fs.statSync(path.join(unpackedDir, file)).isFile()).toBe(true);
      expect(statFile(archive, path.join('node_modules', '@node-llama-cpp', file), false)).toMatchObject({
        unpacked: true,
      });
    }
    expect(statFile(archive, 'node_modules/node-llama-cpp/package.json', false)).toMatchObject({ unpacked: true });
  });

  it('runs the packaged command line in Node mode, which reads its prompts from inside the archive', (context) => {
    if (!supported) return context.skip('packaging is checked on Linux with git');
    const reads = path.join(work, 'reads.log');
    const demo = spawnSync(
      path.join(appOut, 'lathe'),
      [path.join(archive, 'out', 'cli', 'lathe.mjs'), 'demo', '--dir', path.join(work, 'demo')],
      {
        cwd: work,
        encoding: 'utf8',
        timeout: 120_000,
        env: {
          ...process.env,
          ELECTRON_RUN_AS_NODE: '1',
          LATHE_HOME: path.join(work, 'home'),
          LATHE_STAND_IN_READS: reads,
        },
      },
    );
    expect(demo.status, `${demo.stdout}\n${demo.stderr}`).toBe(0);
    expect(demo.stdout).toMatch(/complete \(exit 0\)/);
    const read = fs.readFileSync(reads, 'utf8').split('\n');
    const prompts = read.filter((file) => /[\\/]prompts[\\/][^\\/]+\.md$/.test(file));
    expect(prompts.length).toBeGreaterThan(0);
    expect(
      prompts.every((file) => file.startsWith(`${archive}.view${path.sep}prompts${path.sep}`)),
      prompts.join('\n'),
    ).toBe(true);
    expect(
      read.filter((file) => file.startsWith(ROOT + path.sep) || file.startsWith(path.join(project, 'prompts'))),
    ).toEqual([]);
  }, 150_000);
});
