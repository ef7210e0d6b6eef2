import { APP_VERSION } from '../appVersion';
import { checkModels } from './modelChecks';
import { checkRepoFiles } from './repoFilesCheck';
import { checkLlama, checkMemory, checkThreads } from './runtimeChecks';
import { checkStorage } from './storageCheck';
import { checkElectron, checkGit, checkSandbox, checkTestRunner } from './toolChecks';
import { DoctorReportSchema, type DoctorCheck, type DoctorInput, type DoctorProbes, type DoctorReport } from './types';

/** Every check, in the order a user would fix things: runtime, models, tools, the window. */
export async function runDoctor(input: DoctorInput, probes: DoctorProbes): Promise<DoctorReport> {
  const llama = await checkLlama(probes, input);
  const threads = checkThreads(probes, input);
  const { check: models, library, chosen } = await checkModels(probes, input);
  const memory = await checkMemory(probes, input, library, chosen);
  const [git, sandbox, tests, files, storage] = await Promise.all([
    checkGit(probes),
    checkSandbox(probes),
    checkTestRunner(probes, input),
    checkRepoFiles(probes, input),
    checkStorage(probes, input),
  ]);
  const checks = [llama, threads, models, memory, git, sandbox, tests, files, storage, checkElectron(probes)];
  return DoctorReportSchema.parse({
    ok: checks.every((check) => check.status !== 'fail'),
    lathe_version: APP_VERSION,
    platform: probes.platform,
    arch: probes.arch,
    node: process.version,
    checks,
  });
}

const MARK: Record<DoctorCheck['status'], string> = { ok: 'ok', warn: 'WARN', fail: 'FAIL' };

/** The table, then what to do about each warning and failure (with its details). */
export function formatDoctorReport(report: DoctorReport, options: { verbose?: boolean } = {}): string[] {
  const width = Math.max(...report.checks.map((check) => check.title.length));
  const lines = [
    `Lathe doctor — Lathe ${report.lathe_version}, ${report.platform}-${report.arch}, Node ${report.node}`,
    '',
  ];
  for (const check of report.checks)
    lines.push(`${check.title.padEnd(width)}  ${MARK[check.status].padEnd(4)}  ${check.summary}`);
  const attention = report.checks.filter((check) => check.status !== 'ok' || options.verbose);
  for (const check of attention) {
    lines.push('', `${MARK[check.status]} ${check.title}: ${check.summary}`);
    if (check.fix) lines.push(`  fix: ${check.fix}`);
    for (const detail of check.details) lines.push(`  - ${detail}`);
  }
  const failures = report.checks.filter((check) => check.status === 'fail').length;
  const warnings = report.checks.filter((check) => check.status === 'warn').length;
  lines.push(
    '',
    failures > 0
      ? `${failures} failure(s), ${warnings} warning(s): fix the failures before a run.`
      : `No failures${warnings > 0 ? `, ${warnings} warning(s)` : ''}: Lathe can run here.`,
  );
  return lines;
}
