import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { junitWithLcovReporter } from './nodeTestReporter';

export type RunnerKind = 'pytest' | 'node-test' | 'vitest' | 'jest' | 'go' | 'cargo' | 'playwright' | 'other';

export interface PreparedCommand {
  argv: string[];
  runner: RunnerKind;
  junitFile: string | null;
  /** jest's own JSON report (`--json --outputFile`). */
  jsonFile: string | null;
  coverage: { kind: 'lcov'; file: string } | null;
  /** Extra environment the runner needs (e.g. where coverage.py keeps its data file). */
  env: Record<string, string>;
}

const PYTHON = /^python(\d+(\.\d+)?)?$/;

export function runnerOf(argv: string[]): RunnerKind {
  const [first = '', ...rest] = argv;
  const base = path.basename(first);
  if (base === 'pytest' || base === 'py.test') return 'pytest';
  if (PYTHON.test(base) && rest[0] === '-m' && rest[1] === 'pytest') return 'pytest';
  if (base === 'node' && rest.includes('--test')) return 'node-test';
  const tool = base === 'npx' ? path.basename(rest.find((arg) => !arg.startsWith('-')) ?? '') : base;
  if (tool === 'vitest') return 'vitest';
  if (tool === 'jest') return 'jest';
  if (
    tool === 'playwright' &&
    argv[argv.indexOf(first === 'npx' ? (rest.find((arg) => !arg.startsWith('-')) ?? '') : first) + 1] === 'test'
  )
    return 'playwright';
  if (base === 'go' && rest[0] === 'test') return 'go';
  if (base === 'cargo' && rest[0] === 'test') return 'cargo';
  return 'other';
}

/** Where a runner's reports go, and whether coverage was asked for. */
interface PrepareContext {
  artifactDir: string;
  junitFile: string;
  wantsCoverage: boolean;
}

type Preparer = (argv: string[], context: PrepareContext) => PreparedCommand;

function unchanged(argv: string[], runner: RunnerKind): PreparedCommand {
  return { argv, runner, junitFile: null, jsonFile: null, coverage: null, env: {} };
}

function preparePytest(argv: string[], { artifactDir, junitFile, wantsCoverage }: PrepareContext): PreparedCommand {
  const extra = ['--junitxml', junitFile];
  if (!hasPlugin(argv, 'no:cacheprovider')) extra.push('-p', 'no:cacheprovider');
  let coverage: PreparedCommand['coverage'] = null;
  if (wantsCoverage && canImport(argv, 'pytest_cov')) {
    // lcov, not json: Debian's pytest-cov 4.0 predates the json report.
    const file = path.join(artifactDir, 'lcov.info');
    extra.push('--cov=.', `--cov-report=lcov:${file}`);
    coverage = { kind: 'lcov', file };
  }
  return {
    argv: [...argv, ...extra],
    runner: 'pytest',
    junitFile,
    jsonFile: null,
    coverage,
    env: { COVERAGE_FILE: path.join(artifactDir, 'cache', '.coverage') },
  };
}

function prepareNodeTest(argv: string[], { artifactDir, junitFile, wantsCoverage }: PrepareContext): PreparedCommand {
  const lcovFile = path.join(artifactDir, 'lcov.info');
  // Never a third reporter: Node 20 then warns MaxListenersExceededWarning at the top of the log.
  const machineReporter = wantsCoverage
    ? ['--experimental-test-coverage', `--test-reporter=${junitWithLcovReporter(lcovFile)}`]
    : ['--test-reporter=junit'];
  const reporters = [
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    ...machineReporter,
    `--test-reporter-destination=${junitFile}`,
  ];
  const coverage: PreparedCommand['coverage'] = wantsCoverage ? { kind: 'lcov', file: lcovFile } : null;
  const withoutReporters = argv.slice(1).filter((arg) => !arg.startsWith('--test-reporter'));
  return {
    argv: [argv[0] as string, ...reporters, ...withoutReporters],
    runner: 'node-test',
    junitFile,
    jsonFile: null,
    coverage,
    env: {},
  };
}

function prepareVitest(argv: string[], { junitFile }: PrepareContext): PreparedCommand {
  return {
    argv: [...argv, '--reporter=default', '--reporter=junit', `--outputFile.junit=${junitFile}`],
    runner: 'vitest',
    junitFile,
    jsonFile: null,
    coverage: null,
    env: {},
  };
}

function prepareJest(argv: string[], { artifactDir }: PrepareContext): PreparedCommand {
  // jest's built-in JSON report; its usual reporter still writes to the terminal.
  const ownReport = argv.some((arg) => arg === '--json' || arg.startsWith('--outputFile'));
  const jsonFile = ownReport ? null : path.join(artifactDir, 'jest.json');
  const extra = [
    ...(argv.includes('--ci') ? [] : ['--ci']),
    ...(jsonFile ? ['--json', `--outputFile=${jsonFile}`] : []),
  ];
  return { argv: [...argv, ...extra], runner: 'jest', junitFile: null, jsonFile, coverage: null, env: {} };
}

function prepareGo(argv: string[]): PreparedCommand {
  // -v names every test as it passes, fails or is skipped; without it go prints only failures.
  const verbose = argv.some((arg) => /^-(test\.)?(v|json)(=true)?$/.test(arg));
  return unchanged(verbose ? argv : [argv[0] as string, 'test', '-v', ...argv.slice(2)], 'go');
}

function prepareCargo(argv: string[]): PreparedCommand {
  // Without --no-fail-fast cargo stops at the first test binary that fails: the later binaries'
  // tests never run, and their absence reads as tests lost.
  if (argv.includes('--no-fail-fast')) return unchanged(argv, 'cargo');
  const separator = argv.indexOf('--');
  const flagsEnd = separator === -1 ? argv.length : separator;
  return unchanged([...argv.slice(0, flagsEnd), '--no-fail-fast', ...argv.slice(flagsEnd)], 'cargo');
}

function preparePlaywright(argv: string[], { artifactDir, junitFile }: PrepareContext): PreparedCommand {
  // Its built-in JUnit reporter beside the list reporter (one line per test in the log), and its
  // screenshots and traces into the artifact folder: `test-results/` in a read-only work tree fails the run.
  const ownReporter = argv.some((arg) => arg.startsWith('--reporter'));
  const extra = [
    ...(ownReporter ? [] : ['--reporter=list,junit']),
    ...(argv.some((arg) => arg.startsWith('--output')) ? [] : [`--output=${path.join(artifactDir, 'playwright')}`]),
  ];
  return {
    argv: [...argv, ...extra],
    runner: 'playwright',
    junitFile: ownReporter ? null : junitFile,
    jsonFile: null,
    coverage: null,
    env: ownReporter ? {} : { PLAYWRIGHT_JUNIT_OUTPUT_NAME: junitFile },
  };
}

const PREPARERS: Record<RunnerKind, Preparer> = {
  pytest: preparePytest,
  'node-test': prepareNodeTest,
  vitest: prepareVitest,
  jest: prepareJest,
  go: prepareGo,
  cargo: prepareCargo,
  playwright: preparePlaywright,
  other: (argv) => unchanged(argv, 'other'),
};

/**
 * Adds what makes a runner's result machine-readable and its run side-effect free: JUnit XML into
 * ARTIFACT_DIR, no cache or snapshot writes, and coverage when asked for. argv stays argv.
 */
export function prepareCommand(
  argv: string[],
  artifactDir: string,
  coverageFor: string[] | undefined,
): PreparedCommand {
  const junitFile = path.join(artifactDir, 'junit.xml');
  return PREPARERS[runnerOf(argv)](argv, { artifactDir, junitFile, wantsCoverage: (coverageFor?.length ?? 0) > 0 });
}

/** pytest-cov is a plugin: only ask for coverage when this interpreter has it (else pytest exits 4). */
function canImport(argv: string[], moduleName: string): boolean {
  const python = argv[0] as string;
  if (!PYTHON.test(path.basename(python)) || argv[1] !== '-m') return false;
  return spawnSync(python, ['-c', `import ${moduleName}`], { stdio: 'ignore', timeout: 10_000 }).status === 0;
}

function hasPlugin(argv: string[], plugin: string): boolean {
  return argv.some((arg, index) => (arg === '-p' && argv[index + 1] === plugin) || arg === `-p${plugin}`);
}
