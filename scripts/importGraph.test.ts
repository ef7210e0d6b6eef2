import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findCircles, readImportGraph, roomOf, upwardImports, type ImportGraph } from './importGraph';

const describeCircle = (graph: ImportGraph, circle: string[]) =>
  circle
    .map(
      (file) =>
        `${file} -> ${[...(graph.imports.get(file) ?? [])].filter((target) => circle.includes(target)).join(', ')}`,
    )
    .join('\n');

describe('the import graph of product code (electron/, shared/)', () => {
  const graph = readImportGraph(process.cwd());

  it('reads every product file and its imports', () => {
    expect(graph.files.length).toBeGreaterThan(300);
    expect(graph.files.some((file) => file.endsWith('.test.ts'))).toBe(false);
    expect(graph.imports.get('electron/core/git/commitStep.ts')).toContain('electron/core/basics/editPath.ts');
  });

  it('has no import circle', () => {
    const circles = findCircles(graph.files, (file) => graph.imports.get(file) ?? []);
    expect(circles.map((circle) => describeCircle(graph, circle))).toEqual([]);
  });

  it('has at most 2 imports running back up between folders', () => {
    const upward = upwardImports(graph).map(([from, to]) => `${from} -> ${to}`);
    expect(upward.length, upward.join('\n')).toBeLessThanOrEqual(2);
  });
});

describe('readImportGraph, findCircles and upwardImports', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-import-graph-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };

  it('finds a circle through a type-only import, and the one import that runs back up between folders', () => {
    write('electron/core/low/a.ts', "import type { B } from '../high/b';\nexport type A = B;\n");
    write('electron/core/high/b.ts', "import { c } from './c';\nexport type B = string;\nexport const b = c;\n");
    write(
      'electron/core/high/c.ts',
      "import type { A } from '../low/a';\nimport { d } from '../low/d';\nexport const c: A = d;\n",
    );
    write('electron/core/low/d.ts', 'export const d = "d";\n');
    write('electron/core/high/c.test.ts', "import { b } from './b';\nexport const t = b;\n");
    const graph = readImportGraph(root);
    expect(graph.files).toEqual([
      'electron/core/high/b.ts',
      'electron/core/high/c.ts',
      'electron/core/low/a.ts',
      'electron/core/low/d.ts',
    ]);
    expect(findCircles(graph.files, (file) => graph.imports.get(file) ?? [])).toEqual([
      ['electron/core/high/b.ts', 'electron/core/high/c.ts', 'electron/core/low/a.ts'],
    ]);
    expect(upwardImports(graph)).toEqual([['electron/core/low/a.ts', 'electron/core/high/b.ts']]);
  });

  it('draws the core by its folders and the rest by its second level', () => {
    expect(roomOf('electron/core/git/commitStep.ts')).toBe('electron/core/git');
    expect(roomOf('electron/core/fsErrors.ts')).toBe('electron/core/fsErrors.ts');
    expect(roomOf('shared/engine/machine.ts')).toBe('shared/engine');
    expect(roomOf('electron/main/index.ts')).toBe('electron/main');
  });
});
