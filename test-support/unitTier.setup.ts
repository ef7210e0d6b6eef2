import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';

// The unit tier is the fast loop: a test here that starts git, the CLI or a runner would make it slow again
// without anyone noticing, so starting a process fails the test and says where the file belongs.
const STARTERS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;
const starters = childProcess as unknown as Record<(typeof STARTERS)[number], unknown>;
for (const name of STARTERS) {
  starters[name] = () => {
    throw new Error(
      `a unit test must not start a process (child_process.${name}): list its file in INTEGRATION_TESTS or SLOW_TESTS (test-support/testTiers.ts)`,
    );
  };
}
syncBuiltinESMExports();
