import { ensureCli } from '../scripts/cliBuild.mjs';

/**
 * Tests that spawn `bin/lathe.mjs` run the built CLI, as users do. Building it once here keeps
 * parallel test workers from each rebuilding it after a source change.
 */
export default async function setup(): Promise<void> {
  await ensureCli({ log: (line) => process.stderr.write(`${line}\n`) });
}
