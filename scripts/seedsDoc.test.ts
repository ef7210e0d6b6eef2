import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const SEEDS = fs.readFileSync(path.join(ROOT, 'docs', 'seeds.md'), 'utf8');
const DECISIONS = fs.readFileSync(path.join(ROOT, 'docs', 'decisions.md'), 'utf8');

interface Row {
  id: string;
  text: string;
}

/** The requirement rows of docs/seeds.md: `| 2.3 | requirement | code | shown by / deviation |`. */
function rows(): Row[] {
  return SEEDS.split('\n').flatMap((line) => {
    const match = /^\| (\d\.\d+) \|/.exec(line);
    return match?.[1] ? [{ id: match[1], text: line }] : [];
  });
}

/** Where a cited path lives: relative to electron/core/ unless it names another top-level folder. */
function resolveCited(cited: string): string {
  return /^(shared|prompts|docs|scripts|renderer|e2e|test-support|bench)\//.test(cited)
    ? path.join(ROOT, cited)
    : path.join(ROOT, 'electron', 'core', cited);
}

/** The test files a row cites after `T:`. */
function citedTests(row: Row): string[] {
  const shown = row.text.slice(row.text.indexOf('T:'));
  if (!row.text.includes('T:')) return [];
  return [...shown.matchAll(/`([^`\s]+\.(?:test|spec|e2e\.test)\.tsx?)`/g)].map((match) => match[1] ?? '');
}

/** `2.1` as a word: not part of `2.13` or `12.1`. */
const mentions = (text: string, id: string) => new RegExp(`(?<![\\d.])${id.replace('.', '\\.')}(?![\\d])`).test(text);

describe('docs/seeds.md, the requirement → code → test map', () => {
  it('has every row of the five seeds, and a real path prefix', () => {
    const ids = rows().map((row) => row.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const seed of ['0', '1', '2', '3', '4'])
      expect(ids.filter((id) => id.startsWith(`${seed}.`)).length).toBeGreaterThan(10);
    expect(SEEDS).not.toContain('relative to ``');
    expect(SEEDS).toContain('relative to `electron/core/`');
  });

  it('cites test files that exist and name the requirement id they are cited for', () => {
    const problems: string[] = [];
    let citations = 0;
    for (const row of rows()) {
      for (const cited of citedTests(row)) {
        citations++;
        const file = resolveCited(cited);
        if (!fs.existsSync(file)) problems.push(`${row.id}: ${cited} does not exist`);
        else if (!mentions(fs.readFileSync(file, 'utf8'), row.id))
          problems.push(`${row.id}: ${cited} does not mention ${row.id}`);
      }
    }
    expect(citations).toBeGreaterThan(80);
    expect(problems).toEqual([]);
  });

  it('records every deviation, with its reason, in docs/decisions.md (1.12; seed 001: deviations must be documented)', () => {
    const start = DECISIONS.indexOf('Deviations from the seeds');
    expect(start).toBeGreaterThan(-1);
    const section = DECISIONS.slice(
      start,
      DECISIONS.indexOf('\n## ', start + 1) === -1 ? undefined : DECISIONS.indexOf('\n## ', start + 1),
    );
    const deviations = rows().filter((row) => /Deviation:|Interpretation:/.test(row.text));
    expect(deviations.length).toBeGreaterThan(15);
    const missing = deviations
      .filter((row) => !new RegExp(`^- ${row.id.replace('.', '\\.')}\\b.+—.+`, 'm').test(section))
      .map((row) => row.id);
    expect(missing).toEqual([]);
  });

  it('notices a citation that does not name its row', () => {
    expect(mentions('describe("seed 002 (2.13)")', '2.1')).toBe(false);
    expect(mentions('describe("seed 002 (2.1, 2.13)")', '2.1')).toBe(true);
    expect(mentions('version 12.1', '2.1')).toBe(false);
  });
});
