import path from 'node:path';
import type { DetectedTestCommand } from './types';
import { exists, readText } from './detectFiles';
import { detectJavaScript } from './detectJs';
import { detectPython } from './detectPython';

/**
 * The repository's own test command, in this order: JavaScript (package.json), Python, go, cargo,
 * make. docs/workspace.md documents the rules; a configured command always wins over this.
 * Throws FILE_UNREADABLE when a manifest exists but cannot be read (or package.json is not JSON):
 * which runner the repository uses cannot be told then, and guessing past it would pick the wrong one.
 */
export async function detectTestCommand(dir: string): Promise<DetectedTestCommand | null> {
  return (await detectJavaScript(dir)) ?? (await detectPython(dir)) ?? (await detectSimple(dir));
}

/** How a detected command is shown to the user: `detected: pytest (tests inside toolz/; …)`. */
export function detectionLabel(detected: Pick<DetectedTestCommand, 'runner' | 'reason'>): string {
  return `detected: ${RUNNER_NAMES[detected.runner]} (${detected.reason})`;
}

const RUNNER_NAMES: Record<DetectedTestCommand['runner'], string> = {
  npm: 'npm test',
  'node-test': 'node --test',
  vitest: 'vitest',
  jest: 'jest',
  mocha: 'mocha',
  ava: 'ava',
  jasmine: 'jasmine',
  tape: 'tape',
  uvu: 'uvu',
  pytest: 'pytest',
  unittest: 'unittest',
  nose2: 'nose2',
  go: 'go test',
  cargo: 'cargo test',
  make: 'make test',
};

async function detectSimple(dir: string): Promise<DetectedTestCommand | null> {
  if (await exists(path.join(dir, 'go.mod'))) return { argv: ['go', 'test', './...'], runner: 'go', reason: 'go.mod' };
  if (await exists(path.join(dir, 'Cargo.toml')))
    return { argv: ['cargo', 'test'], runner: 'cargo', reason: 'Cargo.toml' };
  for (const name of ['GNUmakefile', 'makefile', 'Makefile']) {
    const text = await readText(path.join(dir, name));
    if (text !== null && /^test\s*:/m.test(text))
      return { argv: ['make', 'test'], runner: 'make', reason: `${name} has a test target` };
  }
  return null;
}
