import { RETENTION } from '../verifier/artifacts';
import type { DoctorCheck, DoctorInput, DoctorProbes } from './types';

const MiB = 1024 * 1024;
/** Past this the artifacts are worth a look (a flood of test output, many stuck reports kept). */
const LARGE_BYTES = 2 * 1024 * MiB;

/** Seed 004's artifact retention: what the Verifier's artifacts take, and what is kept for stuck reports. */
export async function checkStorage(probes: DoctorProbes, input: DoctorInput): Promise<DoctorCheck> {
  const title = 'Verifier artifacts';
  if (!input.artifactRoot)
    return { id: 'storage', title, status: 'ok', summary: 'no artifact folder given', fix: null, details: [] };
  const usage = await probes.artifactUsage(input.artifactRoot);
  const size = `${(usage.bytes / MiB).toFixed(1)} MB`;
  const summary = `${usage.runs} verifier run(s), ${size}${usage.retained > 0 ? `, ${usage.retained} kept for stuck reports` : ''}`;
  const details = [
    `folder: ${usage.root}`,
    `retention: the ${RETENTION.keepRuns} newest runs, or any younger than ${RETENTION.keepDays} days; a stuck report's runs are kept until the run is merged, undone or resumed to green`,
  ];
  if (usage.bytes > LARGE_BYTES) {
    return {
      id: 'storage',
      title,
      status: 'warn',
      summary,
      fix: `the artifacts take ${size}: resolve the stuck runs (lathe undo RUN_ID) so their artifacts fall under retention, or delete old folders in ${usage.root}`,
      details,
    };
  }
  return { id: 'storage', title, status: 'ok', summary, fix: null, details };
}
