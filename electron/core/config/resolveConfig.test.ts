import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../test-support/tempRepo';
import { parseDuration } from './duration';
import { resolveRunConfig, splitCommand } from './resolveConfig';

let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function withRepoConfig(yaml: string): string {
  dir = makeTempDir();
  fs.writeFileSync(path.join(dir, 'lathe.config.yaml'), yaml);
  return dir;
}

describe('resolveRunConfig', () => {
  it('starts from the workflow defaults', () => {
    dir = makeTempDir();
    const config = resolveRunConfig({ repoRoot: dir }, { workflow: 'retry-loop' });
    expect(config).toMatchObject({
      workflow: 'retry-loop',
      edit_format: 'whole-file',
      limits: { max_attempts_per_task: 4 },
      branch_prefix: 'lathe',
    });
  });

  it('reads which model servers beyond this machine a run may reach, loopback only by default', () => {
    dir = makeTempDir();
    expect(resolveRunConfig({ repoRoot: dir }, {}).model_access).toEqual({
      allow_hosts: [],
      token_env: 'LATHE_MODEL_TOKEN',
    });
    const repo = withRepoConfig(
      'models:\n  allow_hosts: [GPU-Box.lan, "10.0.0.5:8080"]\n  token_env: TEAM_LLM_TOKEN\n',
    );
    expect(resolveRunConfig({ repoRoot: repo }, {}).model_access).toEqual({
      allow_hosts: ['gpu-box.lan', '10.0.0.5:8080'],
      token_env: 'TEAM_LLM_TOKEN',
    });
    fs.writeFileSync(path.join(repo, 'lathe.config.yaml'), 'models:\n  token_env: "not a name"\n');
    expect(() => resolveRunConfig({ repoRoot: repo }, {})).toThrow(/model_access\.token_env/);
  });

  it("takes policies.sandbox.read_paths from the user's own config only, absolute or ~/", () => {
    dir = makeTempDir();
    expect(resolveRunConfig({ repoRoot: dir }, {}).sandbox).toEqual({ read_paths: [] });
    const own = path.join(dir, 'mine.yaml');
    fs.writeFileSync(own, 'policies:\n  sandbox:\n    read_paths: [/srv/data, ~/datasets/x]\n');
    expect(resolveRunConfig({ repoRoot: dir, configFile: own }, {}).sandbox.read_paths).toEqual([
      '/srv/data',
      path.join(os.homedir(), 'datasets/x'),
    ]);
    fs.writeFileSync(own, 'policies:\n  sandbox:\n    read_paths: [data]\n');
    expect(() => resolveRunConfig({ repoRoot: dir, configFile: own }, {})).toThrow(
      /read_paths: data is not an absolute path/,
    );
    fs.writeFileSync(path.join(dir, 'lathe.config.yaml'), 'policies:\n  sandbox:\n    read_paths: [~/.ssh]\n');
    expect(() => resolveRunConfig({ repoRoot: dir }, {})).toThrow(
      /lathe\.config\.yaml: policies\.sandbox\.read_paths: a repository cannot widen the sandbox its own tests run in/,
    );
  });

  it('turns prompt-lookup decoding on for the roles that ask for it', () => {
    const repo = withRepoConfig(
      'agents:\n  default: llama:/m/a.gguf\n  coder: { model: llama:/m/a.gguf, prompt_lookup: true }\n',
    );
    const config = resolveRunConfig({ repoRoot: repo }, {});
    expect(config.models.coder).toEqual({ model: 'llama:/m/a.gguf', prompt_lookup: true });
    expect(config.models.planner?.prompt_lookup).toBeUndefined();
  });

  // docs/seeds.md 0.10 (one config file with agents: and policies:), 1.9 (seed 001's keys as written)
  it('layers the repo file, then --config, then flags', () => {
    const repo = withRepoConfig(
      'workflow: dev-agent\nagents:\n  default: llama:/m/a.gguf\n  supervisor: { model: ollama:phi, temperature: 0.1 }\npolicies:\n  time_limit: 30m\n  gates: { plan: human }\n',
    );
    const extra = path.join(repo, 'extra.yaml');
    fs.writeFileSync(
      extra,
      'max_iterations: 7\ntest_command: "pytest --maxfail=1"\ngit: { remote: origin, branch_prefix: dev-agent/fix, auto_pr: true }\n',
    );
    const config = resolveRunConfig(
      { repoRoot: repo, configFile: extra },
      { roleModels: { coder: 'llama-cpp:/m/codellama.gguf' }, gates: { step: 'both' } },
    );
    expect(config.workflow).toBe('dev-agent');
    expect(config.models.planner).toEqual({ model: 'llama:/m/a.gguf' });
    expect(config.models.supervisor).toEqual({ model: 'ollama:phi', temperature: 0.1 });
    expect(config.models.coder).toEqual({ model: 'llama:/m/codellama.gguf' });
    expect(config.time_limit_ms).toBe(30 * 60_000);
    expect(config.limits.max_attempts_per_task).toBe(7);
    expect(config.test_command).toEqual(['pytest', '--maxfail=1']);
    expect(config.push).toEqual({ remote: 'origin', write_pr_description: true, enabled: true });
    expect(config.branch_prefix).toBe('dev-agent/fix');
    expect(config.gates).toEqual({ plan: 'human', code: 'off', step: 'both', goal: 'off' });
  });

  it('reads the workspace section: worktree root, setup command, its timeout, shared folders', () => {
    dir = makeTempDir();
    expect(resolveRunConfig({ repoRoot: dir }).workspace).toEqual({
      worktree_root: null,
      setup_command: null,
      setup_timeout_ms: 600_000,
      dependency_folders: null,
    });
    const config = resolveRunConfig({
      repoRoot: withRepoConfig(
        'workspace:\n  worktree_root: /srv/lathe-runs\n  setup: npm run build --if-present\n  setup_timeout: 5m\n  dependency_folders: [node_modules]\n',
      ),
    });
    expect(config.workspace).toEqual({
      worktree_root: '/srv/lathe-runs',
      setup_command: ['npm', 'run', 'build', '--if-present'],
      setup_timeout_ms: 300_000,
      dependency_folders: ['node_modules'],
    });
    expect(
      resolveRunConfig({ repoRoot: withRepoConfig('workspace:\n  setup: [sh, -c, "make deps && make gen"]\n') })
        .workspace.setup_command,
    ).toEqual(['sh', '-c', 'make deps && make gen']);
    expect(() => resolveRunConfig({ repoRoot: withRepoConfig('workspace:\n  setup_command: make\n') })).toThrow(
      /workspace\.setup_command.*Unrecognized key/,
    );
    expect(() =>
      resolveRunConfig({ repoRoot: withRepoConfig('workspace:\n  dependency_folders: [packages/a/node_modules]\n') }),
    ).toThrow(/workspace\.dependency_folders/);
  });

  it("protects the repository's existing tests unless policies.tests says allow (issue 26)", () => {
    expect(resolveRunConfig({ repoRoot: withRepoConfig('workflow: retry-loop\n') }).tests_policy).toBe('protect');
    fs.rmSync(dir, { recursive: true, force: true });
    expect(resolveRunConfig({ repoRoot: withRepoConfig('policies:\n  tests: allow\n') }).tests_policy).toBe('allow');
    fs.rmSync(dir, { recursive: true, force: true });
    expect(() => resolveRunConfig({ repoRoot: withRepoConfig('policies:\n  tests: sometimes\n') })).toThrow(
      /policies\.tests/,
    );
  });

  it("reads seed 004's build step (policies.build_command), none by default", () => {
    expect(resolveRunConfig({ repoRoot: withRepoConfig('workflow: editor-scouts\n') }).build_command).toBeNull();
    fs.rmSync(dir, { recursive: true, force: true });
    const config = resolveRunConfig({
      repoRoot: withRepoConfig(
        'policies:\n  build_command: "rimraf build && tsc -p tsconfig.test.json"\n  test_command: "npx mocha"\n',
      ),
    });
    expect(config.build_command).toEqual(['sh', '-c', 'rimraf build && tsc -p tsconfig.test.json']);
    expect(config.test_command).toEqual(['npx', 'mocha']);
    fs.rmSync(dir, { recursive: true, force: true });
    expect(
      resolveRunConfig({ repoRoot: withRepoConfig('policies:\n  build_command: [make, all]\n') }).build_command,
    ).toEqual(['make', 'all']);
  });

  it("reads seed 003's registered tools: argv as a list or a command line, required, and each tool's timeout (3.13)", () => {
    const repo = withRepoConfig(
      'policies:\n  extra_verification:\n    - { name: lint, argv: "npx eslint --max-warnings 0 .", timeout: 90s }\n    - { name: types, argv: [npx, tsc, --noEmit], required: false }\n',
    );
    expect(resolveRunConfig({ repoRoot: repo }).extra_verification).toEqual([
      { name: 'lint', argv: ['npx', 'eslint', '--max-warnings', '0', '.'], required: true, timeout_ms: 90_000 },
      { name: 'types', argv: ['npx', 'tsc', '--noEmit'], required: false, timeout_ms: null },
    ]);
  });

  it("seed 001's push: on for dev-agent (origin by default), off elsewhere unless a remote is named; remote: null turns it off (1.7)", () => {
    dir = makeTempDir();
    expect(resolveRunConfig({ repoRoot: dir }, { workflow: 'dev-agent' }).push).toEqual({
      remote: null,
      write_pr_description: true,
      enabled: true,
    });
    expect(resolveRunConfig({ repoRoot: dir }, { workflow: 'minimal' }).push.enabled).toBe(false);
    fs.writeFileSync(path.join(dir, 'lathe.config.yaml'), 'git: { remote: upstream }\n');
    expect(resolveRunConfig({ repoRoot: dir }, { workflow: 'minimal' }).push).toMatchObject({
      remote: 'upstream',
      enabled: true,
    });
    fs.writeFileSync(path.join(dir, 'lathe.config.yaml'), 'git: { remote: null }\n');
    expect(resolveRunConfig({ repoRoot: dir }, { workflow: 'dev-agent' }).push.enabled).toBe(false);
    fs.writeFileSync(path.join(dir, 'lathe.config.yaml'), 'git: { push: false }\n');
    expect(resolveRunConfig({ repoRoot: dir }, { workflow: 'dev-agent' }).push.enabled).toBe(false);
  });

  // docs/seeds.md 3.6
  it("maps seed 003's max_retries to 1 + retries attempts", () => {
    const config = resolveRunConfig({ repoRoot: withRepoConfig('workflow: retry-loop\nmax_retries: 5\n') });
    expect(config.limits.max_attempts_per_task).toBe(6);
  });

  it('names the bad key: unknown keys, wrong types, bad values', () => {
    expect(() => resolveRunConfig({ repoRoot: withRepoConfig('policies:\n  edit_fromat: whole-file\n') })).toThrow(
      /policies\.edit_fromat.*Unrecognized key/,
    );
    expect(() => resolveRunConfig({ repoRoot: withRepoConfig('policies:\n  gates: { plan: sometimes }\n') })).toThrow(
      /policies\.gates\.plan/,
    );
    expect(() => resolveRunConfig({ repoRoot: withRepoConfig('policies:\n  time_limit: soon\n') })).toThrow(
      /policies\.time_limit/,
    );
    expect(() => resolveRunConfig({ repoRoot: withRepoConfig('workflow: turbo\n') })).toThrow(
      /unknown workflow 'turbo'/,
    );
    expect(() => resolveRunConfig({ repoRoot: withRepoConfig('agents: [1, 2\n') })).toThrow(/not valid YAML/);
    expect(() => resolveRunConfig({ repoRoot: withRepoConfig('git: { branch_prefix: "has space" }\n') })).toThrow(
      /branch_prefix/,
    );
  });
});

describe('config helpers', () => {
  it('parses durations', () => {
    dir = makeTempDir();
    expect(parseDuration('30m')).toBe(1_800_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('90')).toBe(90_000);
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('7d')).toBe(604_800_000);
    expect(parseDuration('1d12h')).toBe(129_600_000);
    expect(() => parseDuration('3 days')).toThrow(/not a duration/);
  });

  it('splits commands without a shell', () => {
    dir = makeTempDir();
    expect(splitCommand('pytest -k "slow and fast" -q')).toEqual(['pytest', '-k', 'slow and fast', '-q']);
    expect(splitCommand(['node', '--test'])).toEqual(['node', '--test']);
  });

  it('runs a command that needs a shell through sh -c, and splits one that does not', () => {
    expect(splitCommand('npm run pretest && npx mocha test/*.mjs')).toEqual([
      'sh',
      '-c',
      'npm run pretest && npx mocha test/*.mjs',
    ]);
    expect(splitCommand('PUPPETEER_SKIP_DOWNLOAD=1 npm test')).toEqual([
      'sh',
      '-c',
      'PUPPETEER_SKIP_DOWNLOAD=1 npm test',
    ]);
    expect(splitCommand('pytest tests/test_*.py | tee out.log')).toEqual([
      'sh',
      '-c',
      'pytest tests/test_*.py | tee out.log',
    ]);
    expect(splitCommand('python3 -m pytest -q --deselect toolz/tests/test_package.py::test_has_version')).toEqual([
      'python3',
      '-m',
      'pytest',
      '-q',
      '--deselect',
      'toolz/tests/test_package.py::test_has_version',
    ]);
    expect(splitCommand('pytest -k "a or b*" --maxfail=1')).toEqual(['pytest', '-k', 'a or b*', '--maxfail=1']);
  });
});
