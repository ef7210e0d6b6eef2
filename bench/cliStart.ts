/**
 * CLI start bench: `npx tsx bench/cliStart.ts [--rounds N]`. Prints a table and writes
 * bench/results/cliStart.json. Interleaved rounds of: `node -e 0` (this machine's floor), `lathe --help`
 * and `lathe run --help` through bin/lathe.mjs (the built CLI, as users run it), and `lathe run --help`
 * compiled from source by tsx at start, as bin/lathe.mjs did before the CLI was built (for comparison).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureCli, ROOT } from '../scripts/cliBuild.mjs';
import { figure, report } from './lib/results';
import { interleaved, spread, spreadText } from './lib/stats';

const roundsFlag = process.argv.indexOf('--rounds');
const ROUNDS = roundsFlag > 0 ? Number(process.argv[roundsFlag + 1]) : 10;
const bin = path.join(ROOT, 'bin', 'lathe.mjs');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-bench-cli-'));
const fromSource = path.join(scratch, 'lathe-tsx.mjs');
fs.writeFileSync(
  fromSource,
  `import { register } from ${JSON.stringify(path.join(ROOT, 'node_modules', 'tsx', 'dist', 'esm', 'api', 'index.mjs'))};\nregister();\nconst { runCli, processIo } = await import(${JSON.stringify(path.join(ROOT, 'electron', 'core', 'cli', 'main.ts'))});\nprocess.exitCode = await runCli(process.argv.slice(2), processIo());\n`,
);

function timed(args: string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - started;
  if (result.status !== 0)
    throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr.toString().slice(0, 400)}`);
  return ms;
}

// The bench measures starting the CLI, not building it.
await ensureCli({ log: (line) => process.stderr.write(`${line}\n`) });
timed([bin, '--help']);
const samples = await interleaved(ROUNDS, {
  node: () => timed(['-e', '0']),
  help: () => timed([bin, '--help']),
  runHelp: () => timed([bin, 'run', '--help']),
  tsxRunHelp: () => timed([fromSource, 'run', '--help']),
});
fs.rmSync(scratch, { recursive: true, force: true });

const node = spread(samples.node, 0);
const help = spread(samples.help, 0);
const runHelp = spread(samples.runHelp, 0);
const tsxRunHelp = spread(samples.tsxRunHelp, 0);
// The ratio per round (same moment, same load), then its median.
const ratio = spread(samples.help.map((ms, index) => ms / (samples.node[index] ?? Number.NaN)));
report({
  bench: 'cliStart',
  figures: [
    figure('node_start_ms', '`node -e 0` (the floor)', node.median, 'ms', undefined, spreadText(node)),
    figure('cli_help_ms', '`lathe --help`, built CLI', help.median, 'ms', undefined, spreadText(help)),
    figure('cli_help_ratio', '`lathe --help` / `node -e 0`', ratio.median, '×', { max: 8 }, spreadText(ratio)),
    figure(
      'cli_run_help_ms',
      '`lathe run --help` (loads the engine), built CLI',
      runHelp.median,
      'ms',
      undefined,
      spreadText(runHelp),
    ),
    figure(
      'cli_run_help_tsx_ms',
      '`lathe run --help` compiled by tsx at start (as before)',
      tsxRunHelp.median,
      'ms',
      undefined,
      spreadText(tsxRunHelp),
    ),
  ],
  details: { rounds: ROUNDS, samples, load: os.loadavg() },
});
