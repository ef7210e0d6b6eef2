import { isLatheError } from '../../../shared/errors';
import type { DoctorCheck, DoctorInput, DoctorProbes } from './types';
import { detectionLabel } from '../workspace/index';

const GIT_INSTALL: Partial<Record<NodeJS.Platform, string>> = {
  linux: 'sudo apt install git (Debian/Ubuntu) or sudo dnf install git (Fedora)',
  darwin: 'xcode-select --install (or brew install git)',
  win32: 'install Git for Windows and make sure git.exe is on PATH',
};

export async function checkGit(probes: DoctorProbes): Promise<DoctorCheck> {
  const version = await probes.gitVersion();
  const base = { id: 'git', title: 'git' };
  if (version) {
    return {
      ...base,
      status: 'ok',
      summary: `git ${version}: runs work in their own worktree outside the checkout, status and merges use native git`,
      fix: null,
      details: [],
    };
  }
  return {
    ...base,
    status: 'warn',
    summary:
      'git is not installed: Lathe falls back to isomorphic-git (runs check their branch out in place, status is slower, split or v4 indexes are refused)',
    fix: `Install git: ${GIT_INSTALL[probes.platform] ?? 'from your package manager'}.`,
    details: [],
  };
}

export async function checkSandbox(probes: DoctorProbes): Promise<DoctorCheck> {
  const sandbox = await probes.sandbox();
  const base = { id: 'sandbox', title: 'Test isolation', details: [sandbox.detail] };
  if (sandbox.available) {
    const summary =
      'isolation level bwrap: tests run in bubblewrap that shows them only the system, their toolchains and the run (no home folder, no host sockets), with no network and a read-only repository';
    if (sandbox.capsTmp === false)
      return {
        ...base,
        status: 'warn',
        summary,
        fix: "Upgrade bubblewrap to 0.5 or later: this one cannot cap the sandbox's private /tmp, so a suite can fill memory there.",
      };
    return { ...base, status: 'ok', summary, fix: null };
  }
  const summary =
    'isolation level checkout: tests run in a temporary checkout, with network access, the home folder, host sockets and the rest of the file system reachable';
  if (probes.platform !== 'linux')
    return {
      ...base,
      status: 'warn',
      summary,
      fix: `bubblewrap is Linux-only; on ${probes.platform} only run tests you trust.`,
    };
  const missing = /not installed/.test(sandbox.detail);
  return {
    ...base,
    status: 'warn',
    summary,
    fix: missing
      ? 'Install bubblewrap: sudo apt install bubblewrap (Debian/Ubuntu) or sudo dnf install bubblewrap (Fedora).'
      : 'bubblewrap is installed but user namespaces are refused. On Ubuntu 23.10+ allow them for bwrap with an AppArmor profile (or, system-wide, sudo sysctl kernel.apparmor_restrict_unprivileged_userns=0); elsewhere check kernel.unprivileged_userns_clone=1.',
  };
}

export async function checkTestRunner(probes: DoctorProbes, input: DoctorInput): Promise<DoctorCheck> {
  const base = { id: 'tests', title: 'Test runner' };
  if (!input.repo)
    return {
      ...base,
      status: 'ok',
      summary: 'not checked: no repository (pass --repo DIR, or run from inside one)',
      fix: null,
      details: [],
    };
  let command;
  try {
    command = await probes.detectTestCommand(input.repo);
  } catch (error) {
    if (!isLatheError(error, 'FILE_UNREADABLE')) throw error;
    // Which runner the repository uses cannot be told, and a run would refuse to start: a failure.
    return {
      ...base,
      status: 'fail',
      summary: `cannot tell the test command of ${input.repo}: ${error.message}`,
      fix: 'Make the file readable by this user (or, for package.json, valid JSON), or set policies.test_command in the repository\'s lathe.config.yaml (or pass --test-command "…" to lathe run).',
      details: [`repository: ${input.repo}`],
    };
  }
  if (!command) {
    return {
      ...base,
      status: 'warn',
      summary: `no test command detected in ${input.repo}: runs cannot verify their changes`,
      fix: 'Set policies.test_command in the repository\'s lathe.config.yaml (or pass --test-command "…" to lathe run). Detected automatically: package.json scripts.test, else the config or dependency of a JavaScript runner (vitest, jest, mocha, ava, jasmine, tape, uvu) or node --test for test files; pytest, unittest or nose2 (their config, test_*.py at the top, in tests/ or inside a package); go.mod; Cargo.toml; a Makefile test target.',
      details: [],
    };
  }
  const works = await probes.testRunnerWorks(command, input.repo);
  const shown = command.argv.join(' ');
  if (!works.ok) {
    const pytest = command.runner === 'pytest';
    return {
      ...base,
      status: 'fail',
      summary: `${shown} (${detectionLabel(command)}) cannot run: ${works.detail}`,
      fix: pytest
        ? `Install pytest for ${command.argv[0]}: ${command.argv[0]} -m pip install pytest, or make a virtualenv in the repository (python3 -m venv .venv && .venv/bin/pip install pytest), which Lathe prefers.`
        : `Install ${command.argv[0]} and make sure it is on PATH, or set policies.test_command.`,
      details: [`repository: ${input.repo}`],
    };
  }
  return {
    ...base,
    status: 'ok',
    summary: `${shown} (${detectionLabel(command)})`,
    fix: null,
    details: [`repository: ${input.repo}`, works.detail],
  };
}

export function checkElectron(probes: DoctorProbes): DoctorCheck {
  const electron = probes.electron();
  const base = { id: 'electron', title: 'Electron (npm start)' };
  if (electron.runningVersion)
    return {
      ...base,
      status: 'ok',
      summary: `running inside Electron ${electron.runningVersion} (the packaged app)`,
      fix: null,
      details: [],
    };
  if (electron.binaryPath)
    return {
      ...base,
      status: 'ok',
      summary: `Electron ${electron.packageVersion ?? ''} is installed: npm start can open the window`.replace(
        '  ',
        ' ',
      ),
      fix: null,
      details: [electron.binaryPath],
    };
  return {
    ...base,
    status: 'warn',
    summary: electron.packageVersion
      ? `the electron ${electron.packageVersion} package has no binary: npm start cannot open the window`
      : 'the electron package is not installed: npm start cannot open the window',
    fix: 'Not needed for the CLI, `lathe serve` (the window in a browser) or the installed app. For npm start, on a connected machine run `npm ci` (or `node node_modules/electron/install.js`), which downloads the binary.',
    details: [],
  };
}
