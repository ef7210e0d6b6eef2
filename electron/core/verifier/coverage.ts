import fs from 'node:fs';
import path from 'node:path';
import { whenMissing } from '../fsErrors';

export interface CoverageResult {
  percent: number;
  files: Record<string, number>;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** Line coverage of `wanted` (repo-relative) from an lcov file (node --test --test-reporter=lcov). */
export async function coverageFromLcov(file: string, runDir: string, wanted: string[]): Promise<CoverageResult | null> {
  // No lcov file is no coverage figure: the runner wrote none, and the test result stands on its own.
  const text = await fs.promises.readFile(file, 'utf8').catch(whenMissing(null));
  if (text === null) return null;
  const byFile = new Map<string, { found: number; hit: number }>();
  let current: string | null = null;
  for (const line of text.split('\n')) {
    if (line.startsWith('SF:'))
      current = path
        .relative(runDir, path.resolve(runDir, line.slice(3).trim()))
        .split(path.sep)
        .join('/');
    else if (line.startsWith('LF:') && current)
      byFile.set(current, { found: Number(line.slice(3)), hit: byFile.get(current)?.hit ?? 0 });
    else if (line.startsWith('LH:') && current)
      byFile.set(current, { found: byFile.get(current)?.found ?? 0, hit: Number(line.slice(3)) });
    else if (line === 'end_of_record') current = null;
  }
  return summarize(byFile, wanted);
}

/** A wanted file the runner never loaded counts as 0% (it ran none of its lines). */
function summarize(byFile: Map<string, { found: number; hit: number }>, wanted: string[]): CoverageResult {
  const files: Record<string, number> = {};
  let found = 0;
  let hit = 0;
  for (const file of wanted) {
    const data = byFile.get(file);
    if (!data) {
      files[file] = 0;
      continue;
    }
    files[file] = data.found === 0 ? 100 : round((data.hit / data.found) * 100);
    found += data.found;
    hit += data.hit;
  }
  return {
    percent:
      found === 0
        ? Object.values(files).every((value) => value === 100) && wanted.length > 0
          ? 100
          : 0
        : round((hit / found) * 100),
    files,
  };
}
