#!/usr/bin/env node
// `npm run dist [-- options]`: Lathe's installer for the OS this runs on. Builds the app
// (electron-vite) and the packaged CLI (out/cli/lathe.mjs), checks that what the bundles import is
// what package.json ships, then runs electron-builder with electron-builder.yml.
//   --prepare-only   build and check, but do not run electron-builder
//   --cpu-only       leave the GPU builds of llama.cpp (CUDA, Vulkan) out of the installer
//   anything else    is passed to electron-builder (e.g. --dir, --linux deb, --x64)
// Building needs the network once (electron-builder downloads Electron for the target); the
// installer then installs and runs offline. See docs/air-gapped.md.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { buildCli } from './cliBuild.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const CLI_OUT = path.join(ROOT, 'out', 'cli');

/** Packages electron-builder refuses in `dependencies` (they must be devDependencies). */
const BUILD_ONLY = ['electron', 'electron-builder'];

/** The oldest Node that electron, @electron/get and @electron/rebuild (which electron-builder uses to fetch Electron) accept. */
export const PACKAGING_NODE = '22.12.0';

/**
 * Why this Node cannot build the installer, or null. Node 20.19 runs, tests and builds the app; only
 * electron-builder's download of Electron needs 22.12, so `--prepare-only` and a local Electron
 * (`-c.electronDist=DIR`, as the packaging test uses) are let through. See README.md, Requirements.
 */
export function nodeVersionProblem(version, args) {
  if (args.includes('--prepare-only') || args.some((arg) => /^(-c|--config)\.electronDist(=|$)/.test(arg))) return null;
  const parse = (text) =>
    text
      .replace(/^v/, '')
      .split('.')
      .map((part) => Number.parseInt(part, 10) || 0);
  const [major, minor, patch] = parse(version);
  const [needMajor, needMinor, needPatch] = parse(PACKAGING_NODE);
  const older = major !== needMajor ? major < needMajor : minor !== needMinor ? minor < needMinor : patch < needPatch;
  if (!older) return null;
  return `building the installer needs Node.js >= ${PACKAGING_NODE} (electron-builder downloads Electron with @electron/get, which requires it); this is Node ${version.replace(/^v/, '')}. Node 20.19 is enough for everything else (npm test, electron-vite build, the CLI); \`npm run dist -- --prepare-only\` builds and checks without packaging, and -c.electronDist=DIR packs against an Electron you already have`;
}

/** What in package.json stops electron-builder, or makes it pack what the app never loads. */
export function packageProblems(pkg, runtimeImports = null) {
  const dependencies = Object.keys(pkg.dependencies ?? {});
  const errors = BUILD_ONLY.filter((name) => dependencies.includes(name)).map(
    (name) => `"${name}" is in dependencies; electron-builder only accepts it in devDependencies`,
  );
  const warnings = [];
  if (runtimeImports) {
    for (const name of runtimeImports)
      if (!dependencies.includes(name))
        errors.push(
          `the app imports "${name}" at run time, but it is not in dependencies, so it would not be packaged`,
        );
    const unused = dependencies.filter((name) => !runtimeImports.includes(name) && !BUILD_ONLY.includes(name));
    if (unused.length > 0)
      warnings.push(
        `${unused.length} dependencies are packaged although the app never imports them (move them to devDependencies): ${unused.join(', ')}`,
      );
  }
  return { errors, warnings };
}

/**
 * The packages a bundle imports (bare specifiers, `node:` built-ins aside), by package name. A specifier
 * has no white space: a string that merely ends in "from" is not an import.
 */
export function bareImports(code) {
  const names = new Set();
  for (const match of code.matchAll(
    /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)["']([^"'./\s][^"'\s]*)["']/g,
  )) {
    const specifier = match[1];
    if (specifier.startsWith('node:') || specifier.startsWith('\0')) continue;
    const parts = specifier.split('/');
    names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
  }
  return [...names].sort();
}

/** The builder config without llama.cpp's GPU builds, for smaller installers. */
export function cpuOnlyConfig(config) {
  const gpuBuilds = '!node_modules/@node-llama-cpp/*-{cuda,cuda-ext,vulkan,metal}{,/**/*}';
  // Top level: a platform's `files` would replace the whole list.
  return { ...structuredClone(config), files: [...(config.files ?? []), gpuBuilds] };
}

function run(command, args) {
  const result = spawnSync(process.execPath, [command, ...args], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0)
    throw new Error(`${path.basename(command)} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
}

/** A package's command as a script for this Node (no .cmd shims, which Windows will not spawn without a shell). */
function bin(name) {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8'));
  const relative = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[name];
  if (!relative) throw new Error(`${name} has no command; is it installed?`);
  return path.join(ROOT, 'node_modules', name, relative);
}

function llamaPlatform() {
  const os = process.platform === 'darwin' ? 'mac' : process.platform === 'win32' ? 'win' : process.platform;
  return `${os}-${process.arch}`;
}

async function main(args) {
  const prepareOnly = args.includes('--prepare-only');
  const cpuOnly = args.includes('--cpu-only');
  const builderArgs = args.filter((arg) => arg !== '--prepare-only' && arg !== '--cpu-only');
  const nodeProblem = nodeVersionProblem(process.version, args);
  if (nodeProblem) {
    process.stderr.write(`error: ${nodeProblem}\n`);
    process.exitCode = 1;
    return;
  }
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

  run(bin('electron-vite'), ['build']);
  // A clean folder: the installer carries this build's chunks only, not those kept for running CLIs.
  fs.rmSync(CLI_OUT, { recursive: true, force: true });
  const cli = await buildCli({ root: ROOT, outDir: CLI_OUT });
  const bundles = [
    path.join(ROOT, 'out', 'main', 'index.js'),
    cli.bundle,
    ...cli.chunks.map((chunk) => path.join(CLI_OUT, chunk)),
  ];
  const imports = [...new Set(bundles.flatMap((file) => bareImports(fs.readFileSync(file, 'utf8'))))]
    .filter((name) => name !== 'electron')
    .sort();
  process.stdout.write(`runtime packages: ${imports.join(', ')}\n`);
  const { errors, warnings } = packageProblems(pkg, imports);
  const binary = path.join(ROOT, 'node_modules', '@node-llama-cpp', llamaPlatform());
  if (!fs.existsSync(binary))
    errors.push(
      `no prebuilt llama.cpp for ${llamaPlatform()} in node_modules/@node-llama-cpp: run \`npm ci\` on this OS and CPU first`,
    );
  for (const warning of warnings) process.stdout.write(`warning: ${warning}\n`);
  if (errors.length > 0) {
    for (const error of errors) process.stderr.write(`error: ${error}\n`);
    process.exitCode = 1;
    return;
  }
  if (prepareOnly) {
    process.stdout.write(
      'prepared: out/ holds the app and out/cli/lathe.mjs; electron-builder was not run (--prepare-only)\n',
    );
    return;
  }
  let configFile = path.join(ROOT, 'electron-builder.yml');
  if (cpuOnly) {
    const config = cpuOnlyConfig(YAML.parse(fs.readFileSync(configFile, 'utf8')));
    configFile = path.join(ROOT, '.cache', 'electron-builder.cpu-only.yml');
    fs.mkdirSync(path.dirname(configFile), { recursive: true });
    fs.writeFileSync(configFile, YAML.stringify(config));
  }
  run(bin('electron-builder'), ['--config', configFile, '--publish', 'never', ...builderArgs]);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main(process.argv.slice(2)).catch((error) => {
    process.stderr.write(`dist: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
