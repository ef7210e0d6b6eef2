import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder holding `prompts/`, `resources/` and `out/` when the core runs from source (CLI, tests).
 * The Electron shell passes `app.getAppPath()` instead, since bundling moves this file.
 */
export function sourceAppRoot(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
}
