// The import graph of product code (electron/, shared/; tests excluded), read with the TypeScript compiler's own
// pre-processor so type-only imports count too: a circle through a type still ties the files' layers together.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const PRODUCT_ROOTS = ['electron', 'shared'] as const;
const SOURCE_FILE = /\.tsx?$/;
const TEST_FILE = /\.(test|spec)\.tsx?$|\.d\.ts$/;

export interface ImportGraph {
  /** Repository-relative paths with forward slashes, sorted. */
  files: string[];
  /** file -> the product files it imports (type-only and dynamic imports included). */
  imports: Map<string, Set<string>>;
}

function listSources(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...listSources(root, relative));
    else if (SOURCE_FILE.test(entry.name) && !TEST_FILE.test(entry.name)) out.push(relative);
  }
  return out;
}

function resolveImport(from: string, specifier: string, known: Set<string>): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier)).replace(/\.js$/, '');
  const candidates = [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`];
  return candidates.find((candidate) => known.has(candidate)) ?? null;
}

export function readImportGraph(root: string, roots: readonly string[] = PRODUCT_ROOTS): ImportGraph {
  const files = roots
    .filter((dir) => fs.existsSync(path.join(root, dir)))
    .flatMap((dir) => listSources(root, dir))
    .sort();
  const known = new Set(files);
  const imports = new Map<string, Set<string>>();
  for (const file of files) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    const { importedFiles } = ts.preProcessFile(text, true, true);
    const targets = new Set<string>();
    for (const imported of importedFiles) {
      const target = resolveImport(file, imported.fileName, known);
      if (target !== null && target !== file) targets.add(target);
    }
    imports.set(file, targets);
  }
  return { files, imports };
}

/** Strongly connected groups of more than one node (Tarjan), each sorted: every one is an import circle. */
export function findCircles(nodes: readonly string[], edges: (node: string) => Iterable<string>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let counter = 0;
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of edges(node)) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) circles.push(group.sort());
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return circles;
}

/**
 * The room a file belongs to when the house is drawn by folder: electron/core/<dir>, shared/<dir>, electron/<part>;
 * a file straight under such a folder is a room of its own.
 */
export function roomOf(file: string): string {
  const parts = file.split('/');
  const depth = parts[0] === 'electron' && parts[1] === 'core' ? 3 : 2;
  return parts.length > depth ? parts.slice(0, depth).join('/') : file;
}

export interface RoomImport {
  from: string;
  to: string;
  /** The file imports that make up this room-to-room arrow. */
  files: Array<[string, string]>;
}

/** Room-to-room arrows, each with the file imports behind it. */
export function roomImports(graph: ImportGraph): RoomImport[] {
  const arrows = new Map<string, RoomImport>();
  for (const [file, targets] of graph.imports) {
    for (const target of targets) {
      const from = roomOf(file);
      const to = roomOf(target);
      if (from === to) continue;
      const key = `${from} -> ${to}`;
      const arrow = arrows.get(key) ?? { from, to, files: [] };
      arrow.files.push([file, target]);
      arrows.set(key, arrow);
    }
  }
  return [...arrows.values()];
}

/**
 * Imports that run back up: within a room circle, the arrows with the fewest file imports are taken as the ones
 * running against the flow (a greedy cut until no room circle is left). Returns the file imports of the cut arrows.
 */
export function upwardImports(graph: ImportGraph): Array<[string, string]> {
  const arrows = roomImports(graph);
  const rooms = [...new Set(arrows.flatMap((arrow) => [arrow.from, arrow.to]))].sort();
  const live = new Set(arrows);
  const cut: Array<[string, string]> = [];
  for (;;) {
    const edges = (room: string) => [...live].filter((arrow) => arrow.from === room).map((arrow) => arrow.to);
    const [circle] = findCircles(rooms, edges);
    if (circle === undefined) return cut;
    const inside = new Set(circle);
    const weakest = [...live]
      .filter((arrow) => inside.has(arrow.from) && inside.has(arrow.to))
      .sort((a, b) => a.files.length - b.files.length || `${a.from}${a.to}`.localeCompare(`${b.from}${b.to}`))[0]!;
    live.delete(weakest);
    cut.push(...weakest.files);
  }
}

function main(): void {
  const graph = readImportGraph(process.cwd());
  const circles = findCircles(graph.files, (file) => graph.imports.get(file) ?? []);
  console.log(`${graph.files.length} product files, ${circles.length} file circle(s)`);
  for (const circle of circles) console.log(`  circle: ${circle.join(', ')}`);
  const upward = upwardImports(graph);
  console.log(`${upward.length} import(s) running back up between folders`);
  for (const [from, to] of upward) console.log(`  ${from} -> ${to}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) main();
