import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { WORKFLOW_NAMES } from '../../../shared/schemas/workflowName';
import { baselineRun, killAndResume, spreadPoints } from '../../../test-support/crash';
import { makeTempDir } from '../../../test-support/tempRepo';

/** CI kills `minimal` at ≥20 points and every other workflow at 3; `npm run test:soak` kills every workflow at every event. */
const SOAK = process.env.LATHE_SOAK === '1';
const home = makeTempDir('lathe-home-');
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

describe.each(WORKFLOW_NAMES)('crash anywhere, resume to the same result: %s', (workflow) => {
  // docs/seeds.md 3.4 (resume jumps to the recorded phase), 3.7 (state saved after every transition)
  it(
    'resumes after SIGKILL at each point to the same tree, commits and status, with a sound log and no leftovers',
    async () => {
      const baseline = await baselineRun(workflow, home);
      expect(baseline.finished.status).toBe('complete');
      const points = spreadPoints(baseline.events, SOAK ? baseline.events : workflow === 'minimal' ? 22 : 3);
      if (workflow === 'minimal') expect(points.length).toBeGreaterThanOrEqual(20);
      for (const point of points) {
        const outcome = await killAndResume(workflow, point, home);
        expect(outcome.problems, `${workflow}, kill at event ${point} of ${baseline.events}`).toEqual([]);
        expect(outcome.finished, `${workflow}, kill at event ${point}`).toEqual(baseline.finished);
      }
    },
    SOAK ? 4 * 60 * 60_000 : 600_000,
  );
});
