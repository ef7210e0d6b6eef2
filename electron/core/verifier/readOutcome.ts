import fs from 'node:fs';
import { parseJUnit } from './junit';
import { parseJestJson } from './parsers/jest';
import type { TestOutcome } from './parsers/outcome';
import type { PreparedCommand } from './runnerFlags';
import { parseSummaryLines } from './summaryLines';
import { whenMissing } from '../fsErrors';

/**
 * The runner's structured report when it wrote one (JUnit XML, jest's JSON), else its text output.
 * The text's closing lines stand in for a structured report's missing summary.
 */
export async function readOutcome(
  prepared: Pick<PreparedCommand, 'runner' | 'junitFile' | 'jsonFile'>,
  output: string,
  repoDir: string | null,
): Promise<TestOutcome | null> {
  const fromText = parseSummaryLines(output);
  let structured: TestOutcome | null = null;
  if (prepared.junitFile) {
    // A runner that wrote no report is read from its text output instead.
    const xml = await fs.promises.readFile(prepared.junitFile, 'utf8').catch(whenMissing(null));
    structured = xml
      ? parseJUnit(xml, { runner: prepared.runner === 'node-test' ? 'node:test' : prepared.runner, repoDir })
      : null;
  } else if (prepared.jsonFile) {
    // A runner that wrote no report is read from its text output instead.
    const json = await fs.promises.readFile(prepared.jsonFile, 'utf8').catch(whenMissing(null));
    structured = json ? parseJestJson(json, repoDir) : null;
  }
  if (structured && structured.counts.total > 0) {
    return structured.summary.length > 0 || !fromText ? structured : { ...structured, summary: fromText.summary };
  }
  return fromText;
}
