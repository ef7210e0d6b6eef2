// Process-boundary layering, checked on every import: a renderer that imports the core, or a core that
// imports 'electron', would work in one host and break in another, so lint refuses both. Inside the core,
// the foundation under everything that touches a repository is a fixed stack (decision 102): a floor that
// imported one above it would tie the stack into a circle again.
import { builtinModules } from 'node:module';
import path from 'node:path';

/** @typedef {{ layers: string[], electron: boolean, node: boolean }} LayerPolicy */

/** @type {Record<string, LayerPolicy>} */
export const LAYER_POLICIES = {
  shared: { layers: ['shared'], electron: false, node: false },
  renderer: { layers: ['renderer', 'shared'], electron: false, node: false },
  'electron/core': { layers: ['electron/core', 'shared'], electron: false, node: true },
  'electron/preload': { layers: ['electron/preload', 'shared'], electron: true, node: false },
  'electron/main': { layers: ['electron/main', 'electron/core', 'shared'], electron: true, node: true },
};
/**
 * The core's foundation, lowest floor first: process basics, git, then edits, the Verifier, the read-only tools,
 * workspace setup, and the workspace facade on top. A file may import its own floor and those below; the rest of
 * electron/core stands above the whole stack.
 */
export const FOUNDATION_FLOORS = [
  ['basics', 'fsErrors.ts', 'appRoot.ts', 'dataDir.ts', 'appVersion.ts'],
  ['git'],
  ['edits'],
  ['verifier'],
  ['tools'],
  ['setup'],
  ['workspace'],
];
const CORE = 'electron/core';

/**
 * The foundation floor (0 = lowest) of a file under electron/core; FOUNDATION_FLOORS.length for the core above
 * the foundation; null outside electron/core.
 * @param {string} root @param {string} file
 */
export function foundationFloor(root, file) {
  const relative = path.relative(root, file).split(path.sep).join('/');
  if (!relative.startsWith(`${CORE}/`)) return null;
  const [first = ''] = relative.slice(CORE.length + 1).split('/');
  const floor = FOUNDATION_FLOORS.findIndex((names) => names.includes(first) || names.includes(`${first}.ts`));
  return floor === -1 ? FOUNDATION_FLOORS.length : floor;
}

/** @param {number} floor */
const floorName = (floor) =>
  floor < FOUNDATION_FLOORS.length ? `${CORE}/${FOUNDATION_FLOORS[floor]?.[0]}` : `${CORE} above the foundation`;

const LAYER_DIRS = Object.keys(LAYER_POLICIES).sort((a, b) => b.length - a.length);
const NODE_BUILTINS = new Set(builtinModules);

/** @param {string} root @param {string} file */
export function layerOf(root, file) {
  const relative = path.relative(root, file).split(path.sep).join('/');
  return LAYER_DIRS.find((dir) => relative === dir || relative.startsWith(`${dir}/`)) ?? null;
}

/** @type {import('eslint').Rule.RuleModule} */
export const layeringRule = {
  meta: {
    type: 'problem',
    docs: { description: 'keep renderer, shared and the core free of imports from layers they must not reach' },
    schema: [],
    messages: {
      layer: "{{from}} must not import {{to}} ('{{source}}')",
      electron: "{{from}} must not import 'electron' ('{{source}}'): it has to run under plain Node or in a browser",
      node: "{{from}} must not import the Node built-in '{{source}}': it also runs in the browser",
      outside: "{{from}} must not import '{{source}}' from outside the app layers",
      floor: "{{from}} must not import {{to}} ('{{source}}'): the foundation's floors import only downwards",
    },
  },
  create(context) {
    const root = context.cwd;
    const file = context.filename;
    const from = layerOf(root, file);
    if (from === null) return {};
    const policy = LAYER_POLICIES[from];
    const isTest = /\.(test|spec)\.tsx?$/.test(file);

    /** @param {import('estree').Node} node @param {string} source */
    const check = (node, source) => {
      if (source === 'electron' || source.startsWith('electron/')) {
        if (!policy.electron) context.report({ node, messageId: 'electron', data: { from, source } });
        return;
      }
      const bare = source.startsWith('node:') ? source.slice(5) : source;
      if (source.startsWith('node:') || NODE_BUILTINS.has(bare.split('/')[0] ?? '')) {
        if (!policy.node) context.report({ node, messageId: 'node', data: { from, source } });
        return;
      }
      if (!source.startsWith('.') && !path.isAbsolute(source)) return;
      const target = path.resolve(path.dirname(file), source);
      const to = layerOf(root, target);
      if (to === null) {
        const readsPackageJson = target === path.join(root, 'package.json') && policy.node;
        if (!isTest && !readsPackageJson) context.report({ node, messageId: 'outside', data: { from, source } });
        return;
      }
      if (!policy.layers.includes(to)) context.report({ node, messageId: 'layer', data: { from, to, source } });
      const fromFloor = foundationFloor(root, file);
      const toFloor = foundationFloor(root, target);
      if (!isTest && fromFloor !== null && toFloor !== null && toFloor > fromFloor) {
        context.report({
          node,
          messageId: 'floor',
          data: { from: floorName(fromFloor), to: floorName(toFloor), source },
        });
      }
    };

    /** @param {any} node */
    const fromSource = (node) => {
      if (node.source && typeof node.source.value === 'string') check(node, node.source.value);
    };
    return {
      ImportDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ImportExpression(node) {
        if (node.source.type === 'Literal' && typeof node.source.value === 'string') check(node, node.source.value);
      },
      CallExpression(node) {
        const [first] = node.arguments;
        if (
          node.callee.type === 'Identifier' &&
          node.callee.name === 'require' &&
          first?.type === 'Literal' &&
          typeof first.value === 'string'
        ) {
          check(node, first.value);
        }
      },
    };
  },
};

export default { rules: { layering: layeringRule } };
