#!/usr/bin/env node
// Runs the built CLI (out/cli/lathe.mjs), building it first when it is missing or any of its source
// files changed since: no build step to remember after `npm ci` or an edit, and no compiler at start.
import { pathToFileURL } from 'node:url';
import { ensureCli } from '../scripts/cliBuild.mjs';

let bundle;
try {
  bundle = await ensureCli({ log: (line) => process.stderr.write(`${line}\n`) });
} catch (error) {
  process.stderr.write(
    `lathe: the CLI could not be built: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(2);
}
await import(pathToFileURL(bundle).href);
