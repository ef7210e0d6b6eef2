import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { buildOverview } from './overview';
import { buildRepoMap } from './repoMap';

let repo: TempRepo | null = null;
afterEach(() => {
  repo?.remove();
  repo = null;
});

function manyFiles(): TempRepo {
  const files: Record<string, string> = {
    'README.md': '# shop\n',
    'src/cart/total.ts':
      'export function cartTotal(items: number[]): number {\n  return items.reduce((a, b) => a + b, 0);\n}\n',
  };
  for (let index = 0; index < 300; index++)
    files[`src/widgets/widget_${index}.ts`] =
      `export function renderWidget${index}(): string {\n  return 'w${index}';\n}\n`;
  return makeTempRepo({ files });
}

// docs/seeds.md 0.13: the orchestrator's repo summary for the Planner is this map
describe('buildOverview', () => {
  it("ranks the goal's file first, puts notes after the ranked files, and stays within the budget", async () => {
    repo = manyFiles();
    const map = await buildRepoMap(repo.dir);
    const notes = [{ id: 'kb:conventions.md', text: '### Note: conventions.md\nMoney is in cents.\n', priority: 100 }];
    const built = await buildOverview(map, { goal: 'cartTotal adds the prices wrong' }, { budgetTokens: 400, notes });
    expect(built.included[0]).toMatchObject({ id: 'map:src/cart/total.ts', kind: 'map', reason: 'ranked #1' });
    expect(built.items[0]?.text).toContain(
      'src/cart/total.ts (4 lines)\n  1: function cartTotal(items: number[]): number',
    );
    const noteAt = built.included.findIndex((entry) => entry.id === 'kb:conventions.md');
    expect(noteAt).toBeGreaterThan(0);
    expect(built.included.slice(noteAt + 1).every((entry) => entry.id.startsWith('paths:'))).toBe(true);
    expect(built.usedTokens).toBeLessThanOrEqual(400);
    expect(built.items.map((item) => item.priority)).toEqual(
      [...built.items.map((item) => item.priority)].sort((a, b) => b - a),
    );
    // The paths that did not fit are named (up to a limit) and the rest counted.
    expect(built.dropped.length).toBeGreaterThan(10);
    expect(built.dropped.at(-1)?.reason).toMatch(/^\d+ more paths; budget spent$/);
  });

  it('lists the ranked files and the first 80 paths however large the budget, and names what it left out (issue 28)', async () => {
    repo = manyFiles();
    const map = await buildRepoMap(repo.dir);
    const built = await buildOverview(map, { goal: 'cartTotal adds the prices wrong' }, { budgetTokens: 50_000 });
    const text = built.items.map((item) => item.text).join('\n');
    expect(text).toContain('src/cart/total.ts');
    const listed = map.files.filter((file) => text.includes(`${file.path}\n`) || text.endsWith(file.path));
    expect(listed.length).toBeGreaterThanOrEqual(80);
    expect(listed.length).toBeLessThan(map.files.length);
    expect(built.usedTokens).toBeLessThan(2000);
    expect(built.dropped.at(-1)?.reason).toMatch(/^\d+ more paths; past the first 80 paths$/);
  });
});
