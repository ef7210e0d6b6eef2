import fs from 'node:fs';
import path from 'node:path';
import type { Stats } from 'node:fs';
import { FileMatcher } from 'app-builder-lib/out/fileMatcher';
import { validateConfiguration } from 'app-builder-lib/out/util/config/config';
import { expandMacro } from 'app-builder-lib/out/util/macroExpander';
import type { AppInfo } from 'app-builder-lib/out/appInfo';
import { minimatch } from 'minimatch';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { bareImports, cpuOnlyConfig, nodeVersionProblem, packageProblems } from './dist.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
interface Target {
  target: string;
  arch?: string[];
}
interface BuilderConfig {
  appId: string;
  productName: string;
  directories: { output: string };
  files: string[];
  asarUnpack: string[];
  npmRebuild: boolean;
  linux: { target: string[]; icon: string; executableName: string; maintainer: string };
  mac: { target: Target[]; icon: string };
  win: { target: Target[]; icon: string };
  nsis: { installerIcon: string; uninstallerIcon: string };
  deb: { recommends: string[] };
}
const config = YAML.parse(fs.readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')) as BuilderConfig;

/** electron-builder's own pattern logic and macro expansion, as it runs for one OS and arch. */
function selector(patterns: string[], os: 'linux' | 'mac' | 'win' = 'linux', arch = 'x64') {
  const expand = (pattern: string) => expandMacro(pattern, arch, { productName: 'Lathe' } as AppInfo, { os });
  const filter = new FileMatcher(ROOT, '/packaged', expand, patterns).createFilter();
  const asFile = { isDirectory: () => false, isFile: () => true, isSymbolicLink: () => false } as Stats;
  return (relative: string) => filter(path.join(ROOT, relative), asFile) === true;
}

function walk(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .map((file) => `${dir}/${file.split(path.sep).join('/')}`)
    .filter((file) => fs.statSync(path.join(ROOT, file)).isFile());
}

const exclusions = (patterns: string[]) => patterns.filter((pattern) => pattern.startsWith('!'));

function pngSize(file: string): number[] {
  const data = fs.readFileSync(file);
  expect(data.subarray(1, 4).toString('ascii')).toBe('PNG');
  expect(data.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return [data.readUInt32BE(16), data.readUInt32BE(20)];
}

describe('electron-builder.yml', () => {
  it("passes electron-builder's own schema, and names the app and one installer per OS", async () => {
    await expect(
      validateConfiguration(structuredClone(config) as never, { isEnabled: false, add: () => undefined } as never),
    ).resolves.toBeUndefined();
    expect(config).toMatchObject({
      appId: 'dev.lathe.desktop',
      productName: 'Lathe',
      npmRebuild: false,
      directories: { output: 'dist' },
    });
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target.map((target) => target.target)).toEqual(['dmg']);
    expect(config.win.target.map((target) => target.target)).toEqual(['nsis']);
    expect(config.linux.maintainer).toMatch(/<.+@.+>/);
    expect(config.deb.recommends).toEqual(['git', 'bubblewrap']);
    expect(fs.readFileSync(path.join(ROOT, '.gitignore'), 'utf8')).toMatch(/^dist\/$/m);
  });

  it('ships the bundles, prompts/ and resources/ (where the app reads them), never sources, tests or source maps', () => {
    const selected = selector(config.files);
    for (const file of [
      'package.json',
      'out/main/index.js',
      'out/preload/index.cjs',
      'out/renderer/index.html',
      'out/cli/lathe.mjs',
    ])
      expect(selected(file), file).toBe(true);
    const shipped = [...walk('prompts'), ...walk('resources')];
    const left = shipped.filter((file) => !selected(file));
    expect(left.length).toBeGreaterThan(0);
    expect(
      left.every(
        (file) => /^resources\/eval\/[^/]+\/solution\//.test(file) || file === 'resources/icons/make-icons.mjs',
      ),
      left.join(', '),
    ).toBe(true);
    for (const file of [
      'prompts/planner.md',
      'resources/defaults.yaml',
      'resources/examples/js-stats/test/stats.test.js',
      'resources/eval/py-slugify/hidden/tests/test_acceptance.py',
      'resources/replays/js-stats.minimal.json',
    ])
      expect(selected(file), file).toBe(true);
    for (const file of [
      'electron/core/cli/main.ts',
      'electron/core/eval/runEval.test.ts',
      'shared/errors.ts',
      'renderer/index.html',
      'out/main/index.js.map',
      'e2e/open-repo.spec.ts',
      'scripts/dist.mjs',
    ])
      expect(selected(file), file).toBe(false);
  });

  it("unpacks node-llama-cpp and every prebuilt binary from the asar archive (native code and node-llama-cpp's test child)", () => {
    const unpacked = (file: string) => config.asarUnpack.some((pattern) => minimatch(file, pattern, { dot: true }));
    expect(config.asarUnpack).toEqual(
      expect.arrayContaining(['node_modules/node-llama-cpp/**', 'node_modules/@node-llama-cpp/**']),
    );
    const binaries = fs
      .readdirSync(path.join(ROOT, 'node_modules', '@node-llama-cpp'))
      .flatMap((name) => walk(`node_modules/@node-llama-cpp/${name}`));
    expect(binaries.some((file) => file.endsWith('.node'))).toBe(true);
    expect(binaries.every(unpacked)).toBe(true);
    expect(unpacked('node_modules/node-llama-cpp/dist/index.js')).toBe(true);
    expect(unpacked('node_modules/zod/index.js')).toBe(false);
  });

  it.each([
    ['linux', 'x64', ['linux-x64', 'linux-x64-cuda', 'linux-x64-cuda-ext', 'linux-x64-vulkan']],
    ['linux', 'arm64', ['linux-arm64']],
    ['linux', 'armv7l', ['linux-armv7l']],
    ['mac', 'arm64', ['mac-arm64-metal']],
    ['mac', 'x64', ['mac-x64']],
    ['win', 'x64', ['win-x64', 'win-x64-cuda', 'win-x64-cuda-ext', 'win-x64-vulkan']],
    ['win', 'arm64', ['win-arm64']],
  ] as const)('packages only the %s-%s llama.cpp binaries', (os, arch, expected) => {
    const manifest = JSON.parse(
      fs.readFileSync(path.join(ROOT, 'node_modules', 'node-llama-cpp', 'package.json'), 'utf8'),
    ) as { optionalDependencies: Record<string, string> };
    const packages = Object.keys(manifest.optionalDependencies).map((name) => name.replace('@node-llama-cpp/', ''));
    // The node_modules filter takes only the exclusions of `files`, as electron-builder does.
    const kept = selector(['**/*', ...exclusions(config.files)], os, arch);
    expect(packages.filter((name) => kept(`node_modules/@node-llama-cpp/${name}/package.json`))).toEqual(expected);
    expect(kept('node_modules/node-llama-cpp/dist/index.js')).toBe(true);
    const cpuOnly = selector(['**/*', ...exclusions(cpuOnlyConfig(config).files as string[])], os, arch);
    expect(packages.filter((name) => cpuOnly(`node_modules/@node-llama-cpp/${name}/bins/a.so`))).toEqual(
      expected.filter((name) => !/cuda|vulkan|metal/.test(name)),
    );
  });

  it('references icons that exist in the sizes electron-builder wants', () => {
    const linuxIcons = fs
      .readdirSync(path.join(ROOT, config.linux.icon))
      .sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
    expect(linuxIcons).toEqual([
      '16x16.png',
      '32x32.png',
      '48x48.png',
      '64x64.png',
      '128x128.png',
      '256x256.png',
      '512x512.png',
    ]);
    for (const name of linuxIcons)
      expect(pngSize(path.join(ROOT, config.linux.icon, name))).toEqual(
        name.replace('.png', '').split('x').map(Number),
      );
    expect(pngSize(path.join(ROOT, 'resources', 'icons', 'icon.png'))).toEqual([1024, 1024]);

    const icns = fs.readFileSync(path.join(ROOT, config.mac.icon));
    expect(icns.subarray(0, 4).toString('ascii')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const types: string[] = [];
    for (let at = 8; at < icns.length; at += icns.readUInt32BE(at + 4)) {
      types.push(icns.subarray(at, at + 4).toString('ascii'));
      expect(icns.subarray(at + 9, at + 12).toString('ascii')).toBe('PNG');
    }
    expect(types).toEqual(expect.arrayContaining(['ic07', 'ic08', 'ic09', 'ic10']));

    for (const ico of [config.win.icon, config.nsis.installerIcon, config.nsis.uninstallerIcon]) {
      const data = fs.readFileSync(path.join(ROOT, ico));
      expect(data.readUInt16LE(2)).toBe(1);
      const sizes = Array.from({ length: data.readUInt16LE(4) }, (_, index) => data.readUInt8(6 + 16 * index) || 256);
      expect(sizes).toEqual([16, 24, 32, 48, 64, 128, 256]);
    }
  });
});

describe('scripts/dist.mjs', () => {
  it('refuses what electron-builder refuses, and names packages the app imports but does not ship', () => {
    expect(
      packageProblems({ dependencies: { electron: '45.4.1', 'electron-builder': '26.17.0', zod: '4' } }).errors,
    ).toEqual([
      '"electron" is in dependencies; electron-builder only accepts it in devDependencies',
      '"electron-builder" is in dependencies; electron-builder only accepts it in devDependencies',
    ]);
    const { errors, warnings } = packageProblems({ dependencies: { zod: '4', vitest: '4' } }, ['yaml', 'zod']);
    expect(errors).toEqual([
      'the app imports "yaml" at run time, but it is not in dependencies, so it would not be packaged',
    ]);
    expect(warnings).toEqual([
      '1 dependencies are packaged although the app never imports them (move them to devDependencies): vitest',
    ]);
    expect(packageProblems({ dependencies: { zod: '4' } }, ['zod'])).toEqual({ errors: [], warnings: [] });
  });

  it('reads the packages a bundle imports', () => {
    const code = `import fs from "node:fs";\nimport { z } from "zod";\nimport git from 'isomorphic-git';\nimport { x } from "@scope/pkg/sub";\nconst m = await import("node-llama-cpp");\nimport "./local.js";\nrequire("ws");\nconst help = { summary: "the commit it started from", load: () => import("./x.js") };`;
    expect(bareImports(code)).toEqual(['@scope/pkg', 'isomorphic-git', 'node-llama-cpp', 'ws', 'zod']);
  });

  it('refuses to package on a Node older than 22.12 unless Electron need not be downloaded', () => {
    for (const version of ['v20.19.0', 'v20.20.2', 'v22.11.9', 'v21.99.0']) {
      expect(nodeVersionProblem(version, ['--dir']), version).toMatch(/needs Node\.js >= 22\.12\.0 .*this is Node \d/);
    }
    for (const version of ['v22.12.0', 'v22.13.1', 'v24.0.0', 'v100.0.0'])
      expect(nodeVersionProblem(version, []), version).toBeNull();
    expect(nodeVersionProblem('v20.19.0', ['--prepare-only'])).toBeNull();
    expect(nodeVersionProblem('v20.19.0', ['--dir', '-c.electronDist=/tmp/electron'])).toBeNull();
    expect(nodeVersionProblem('v20.19.0', ['--config.electronDist', '/tmp/electron'])).toBeNull();
    expect(nodeVersionProblem('v20.19.0', ['-c.electronVersion=45.4.1'])).toMatch(/22\.12/);
  });
});
