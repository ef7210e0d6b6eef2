import fs from 'node:fs';
import path from 'node:path';

export type ElectronBinary = { found: true; executablePath: string } | { found: false; reason: string };

/**
 * Finds the Electron binary without `require('electron')`, which would try to download it.
 * The electron package writes path.txt only after its (network) install step has run.
 */
export function findElectronBinary(root = process.cwd(), env: NodeJS.ProcessEnv = process.env): ElectronBinary {
  const packageDir = path.join(root, 'node_modules', 'electron');
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const candidate = path.join(
      env.ELECTRON_OVERRIDE_DIST_PATH,
      process.platform === 'win32' ? 'electron.exe' : 'electron',
    );
    if (fs.existsSync(candidate)) return { found: true, executablePath: candidate };
    return { found: false, reason: `ELECTRON_OVERRIDE_DIST_PATH is set but ${candidate} does not exist` };
  }
  const pathFile = path.join(packageDir, 'path.txt');
  if (!fs.existsSync(pathFile)) {
    return {
      found: false,
      reason:
        'the Electron binary is missing: node_modules/electron/path.txt does not exist (the electron package downloads ' +
        'its binary on first use, and this machine is offline). Set ELECTRON_OVERRIDE_DIST_PATH to a local Electron build to run these specs.',
    };
  }
  const executablePath = path.join(packageDir, 'dist', fs.readFileSync(pathFile, 'utf8').trim());
  if (!fs.existsSync(executablePath))
    return { found: false, reason: `the Electron binary named in path.txt is missing: ${executablePath}` };
  return { found: true, executablePath };
}
