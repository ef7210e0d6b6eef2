import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decisionStatusProblems } from './decisionStatus';

const DECISIONS = fs.readFileSync(path.join(import.meta.dirname, '..', 'docs', 'decisions.md'), 'utf8');

describe('docs/decisions.md status lines', () => {
  it('gives every decision a status naming only other, existing decisions', () => {
    expect(decisionStatusProblems(DECISIONS)).toEqual([]);
  });

  it('finds a missing status, a malformed one, an unknown decision and a decision naming itself', () => {
    const doc = [
      '## 1. First',
      'Status: amended by 3',
      '',
      '## 2. Second',
      '',
      'No status here.',
      '## 3. Third',
      'Status: replaced by 9',
      '## 4. Fourth',
      'Status: amended by 4',
      '## 5. Fifth',
      'Status: in force, mostly',
    ].join('\n');
    expect(decisionStatusProblems(doc)).toEqual([
      'decision 2: no status line right under its title',
      'decision 3: names decision 9, which does not exist',
      'decision 4: names itself',
      "decision 5: 'Status: in force, mostly' is not 'in force', 'replaced by N' or 'amended by N, M'",
    ]);
  });
});
