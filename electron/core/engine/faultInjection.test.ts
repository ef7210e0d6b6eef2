import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WORKFLOW_NAMES, type WorkflowName } from '../../../shared/schemas/workflowName';
import { greenShare, sweep, type CaseResult } from '../../../test-support/faults/sweep';

/** CI runs a seeded sample; `npm run test:soak` (LATHE_SOAK=1) runs the full sweep of 200 cases per workflow and rate. */
const SOAK = process.env.LATHE_SOAK === '1';
const CASES = SOAK ? 200 : 2;
const RATES = [0.1, 0.3];
/** A soak can be limited to some workflows: LATHE_SOAK_WORKFLOWS=supervised,dev-agent. */
const WORKFLOWS_UNDER_TEST = WORKFLOW_NAMES.filter(
  (workflow) => !process.env.LATHE_SOAK_WORKFLOWS || process.env.LATHE_SOAK_WORKFLOWS.split(',').includes(workflow),
);

describe('fault-injecting model', () => {
  it(
    `every seeded case (${CASES} per workflow and rate) ends in a defined status within its limits, and touches nothing it must not`,
    async () => {
      const cases = WORKFLOWS_UNDER_TEST.flatMap((workflow) =>
        RATES.flatMap((rate) =>
          Array.from({ length: CASES }, (_, index) => ({
            workflow,
            rate,
            seed: 1000 * RATES.indexOf(rate) + index + 1,
          })),
        ),
      );
      const results = await sweep(cases, SOAK ? 2 : 1);
      const table = WORKFLOWS_UNDER_TEST.map((workflow: WorkflowName) => ({
        workflow,
        ...Object.fromEntries(
          RATES.map((rate) => {
            const share = greenShare(results, workflow, rate);
            return [`green at ${rate * 100}%`, `${share.green}/${share.runs} (${(share.share * 100).toFixed(1)}%)`];
          }),
        ),
      }));
      fs.mkdirSync('test-results', { recursive: true });
      fs.writeFileSync(
        path.join('test-results', `fault-injection${SOAK ? '-soak' : ''}.json`),
        JSON.stringify(
          {
            table,
            results: results.map(({ faults, ...rest }) => ({
              ...rest,
              calls: faults.calls,
              corrupted: faults.corrupted,
            })),
          },
          null,
          2,
        ),
      );
      console.table(table);
      const bad: CaseResult[] = results.filter(
        (result) => result.problems.length > 0 || result.status === 'hang' || result.status === 'crash',
      );
      expect(
        bad.map(
          (result) =>
            `${result.workflow}/${result.rate}/${result.seed}: ${result.status} ${result.problems.join('; ')}`,
        ),
      ).toEqual([]);
      expect(results).toHaveLength(cases.length);
      const corrupted = results.reduce((total, result) => total + result.faults.corrupted.length, 0);
      expect(corrupted).toBeGreaterThan(0);
      if (SOAK && WORKFLOWS_UNDER_TEST.includes('supervised'))
        expect(greenShare(results, 'supervised', 0.3).share).toBeGreaterThanOrEqual(0.95);
    },
    SOAK ? 6 * 60 * 60_000 : 300_000,
  );
});
