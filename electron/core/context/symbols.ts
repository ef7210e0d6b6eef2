import type { Node } from 'web-tree-sitter';
import { grammarFor, parserFor, type GrammarName } from './grammars';

export type SymbolKind = 'function' | 'class' | 'method' | 'variable' | 'type';

/** One definition in a file: lines are 1-based and inclusive. */
export interface FileSymbol {
  /** Qualified for members: `Compose.__call__`, `res.send`. */
  name: string;
  kind: SymbolKind;
  start: number;
  end: number;
  /** The declaration up to its body, whitespace collapsed, at most SIGNATURE_CHARS. */
  signature: string;
}

const SIGNATURE_CHARS = 160;
/** A function this long gets its own nested functions mapped too: a fix often lands in one of them. */
const NESTED_MIN_LINES = 40;
/** Files past this are mapped by the plain scan: a generated bundle is not worth a parse. */
export const MAX_PARSE_BYTES = 1024 * 1024;

function collapse(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SIGNATURE_CHARS ? `${flat.slice(0, SIGNATURE_CHARS - 1)}…` : flat;
}

function signatureOf(node: Node, source: string): string {
  const body = node.childForFieldName('body') ?? node.childForFieldName('value');
  const end =
    body && body.startIndex > node.startIndex
      ? body.startIndex
      : Math.min(node.endIndex, node.startIndex + SIGNATURE_CHARS * 2);
  const firstLines = source.slice(node.startIndex, end).split('\n').slice(0, 6).join('\n');
  return collapse(firstLines.replace(/[{:=(]\s*$/, (tail) => (tail.trim() === '(' ? tail : '')));
}

function lines(node: Node): { start: number; end: number } {
  return { start: node.startPosition.row + 1, end: node.endPosition.row + 1 };
}

const FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'function', 'generator_function']);

/** A walk over a script's syntax tree, collecting its symbols. */
interface ScriptWalk {
  add: (name: string, kind: SymbolKind, node: Node, signatureNode?: Node) => void;
  /** A long function's own nested functions, qualified by it. */
  nested: (node: Node, qualified: string, depth: number) => void;
  visit: (node: Node, owner: string | null, depth: number) => void;
}
type ScriptVisitor = (walk: ScriptWalk, node: Node, owner: string | null, depth: number) => void;

const qualify = (owner: string | null, name: string) => (owner ? `${owner}.${name}` : name);

const visitExport: ScriptVisitor = (walk, node, owner, depth) => {
  const declaration = node.childForFieldName('declaration');
  if (declaration) walk.visit(declaration, owner, depth);
  else {
    const value = node.childForFieldName('value');
    if (value && FUNCTION_VALUES.has(value.type)) walk.add('default', 'function', node);
  }
};

const visitCallable =
  (kind: 'function' | 'method'): ScriptVisitor =>
  (walk, node, owner, depth) => {
    const name = node.childForFieldName('name')?.text;
    if (!name) return;
    const qualified = qualify(owner, name);
    walk.add(qualified, kind, node);
    walk.nested(node, qualified, depth);
  };

const visitClass: ScriptVisitor = (walk, node, owner, depth) => {
  const name = node.childForFieldName('name')?.text ?? owner;
  if (!name) return;
  walk.add(name, 'class', node);
  const body = node.childForFieldName('body');
  for (const member of body?.namedChildren ?? []) if (member) walk.visit(member, name, depth + 1);
};

const visitType: ScriptVisitor = (walk, node) => {
  const name = node.childForFieldName('name')?.text;
  if (name) walk.add(name, 'type', node);
};

const visitDeclaration: ScriptVisitor = (walk, node, owner, depth) => {
  for (const declarator of node.namedChildren) {
    if (declarator?.type !== 'variable_declarator') continue;
    const name = declarator.childForFieldName('name');
    const value = declarator.childForFieldName('value');
    if (name?.type !== 'identifier') continue;
    const isFunction = value !== null && FUNCTION_VALUES.has(value.type);
    if (value?.type === 'class' && depth === 0) walk.visit(value, name.text, depth);
    else if (isFunction) {
      const qualified = qualify(owner, name.text);
      walk.add(qualified, 'function', node, declarator);
      walk.nested(value, qualified, depth);
    } else if (depth === 0) walk.add(name.text, 'variable', node, declarator);
  }
};

/** `a.b = function …` and `a = class …`. */
const visitAssignment: ScriptVisitor = (walk, node, _owner, depth) => {
  const expression = node.namedChildren[0];
  if (expression?.type !== 'assignment_expression') return;
  const left = expression.childForFieldName('left');
  const right = expression.childForFieldName('right');
  if (!left || !right || (left.type !== 'member_expression' && left.type !== 'identifier')) return;
  if (FUNCTION_VALUES.has(right.type)) walk.add(left.text, 'function', node, expression);
  else if (right.type === 'class') walk.visit(right, left.text, depth);
};

const SCRIPT_VISITORS = new Map<string, ScriptVisitor>([
  ['export_statement', visitExport],
  ['function_declaration', visitCallable('function')],
  ['generator_function_declaration', visitCallable('function')],
  ['function_signature', visitCallable('function')],
  ['class_declaration', visitClass],
  ['abstract_class_declaration', visitClass],
  ['class', visitClass],
  ['method_definition', visitCallable('method')],
  ['method_signature', visitCallable('method')],
  ['abstract_method_signature', visitCallable('method')],
  ['interface_declaration', visitType],
  ['type_alias_declaration', visitType],
  ['enum_declaration', visitType],
  ['module', visitType],
  ['internal_module', visitType],
  ['lexical_declaration', visitDeclaration],
  ['variable_declaration', visitDeclaration],
  ['expression_statement', visitAssignment],
]);

/** JavaScript and TypeScript: declarations at the top, in exports, in class bodies, and `a.b = function` assignments. */
function scriptSymbols(root: Node, source: string): FileSymbol[] {
  const out: FileSymbol[] = [];
  const walk: ScriptWalk = {
    add: (name, kind, node, signatureNode = node) =>
      out.push({ name, kind, ...lines(node), signature: signatureOf(signatureNode, source) }),
    nested: (node, qualified, depth) => {
      const body = node.childForFieldName('body');
      if (!body || depth >= 3 || node.endPosition.row - node.startPosition.row < NESTED_MIN_LINES) return;
      for (const statement of body.namedChildren)
        if (statement && statement.type !== 'expression_statement' && statement.type !== 'export_statement')
          walk.visit(statement, qualified, depth + 1);
    },
    visit: (node, owner, depth) => SCRIPT_VISITORS.get(node.type)?.(walk, node, owner, depth),
  };
  for (const child of root.namedChildren) if (child) walk.visit(child, null, 0);
  return out;
}

/** Python: functions and classes at the top, methods (and nested classes) in class bodies. */
function pythonSymbols(root: Node, source: string): FileSymbol[] {
  const out: FileSymbol[] = [];
  const visit = (node: Node, owner: { name: string; isClass: boolean } | null, depth: number): void => {
    const definition = node.type === 'decorated_definition' ? node.childForFieldName('definition') : node;
    if (!definition) return;
    const name = definition.childForFieldName('name')?.text;
    if (!name) return;
    const qualified = owner ? `${owner.name}.${name}` : name;
    const span = lines(node);
    const body = definition.childForFieldName('body')?.namedChildren ?? [];
    if (definition.type === 'function_definition') {
      out.push({
        name: qualified,
        kind: owner?.isClass ? 'method' : 'function',
        ...span,
        signature: signatureOf(definition, source),
      });
      if (depth < 3 && span.end - span.start >= NESTED_MIN_LINES)
        for (const statement of body) if (statement) visit(statement, { name: qualified, isClass: false }, depth + 1);
    } else if (definition.type === 'class_definition') {
      out.push({ name: qualified, kind: 'class', ...span, signature: signatureOf(definition, source) });
      if (depth < 3)
        for (const member of body) if (member) visit(member, { name: qualified, isClass: true }, depth + 1);
    }
  };
  for (const child of root.namedChildren) if (child) visit(child, null, 0);
  return out;
}

const GENERIC_DEFINITION =
  /(function|method|class|struct|interface|enum|trait|impl|module|type)_(declaration|definition|item|spec)$|^(method|singleton_method|class|module)$/;

/** Other grammars: any named definition node, a few levels deep (members of types included). */
function genericSymbols(root: Node, source: string): FileSymbol[] {
  const out: FileSymbol[] = [];
  const visit = (node: Node, owner: string | null, depth: number): void => {
    if (depth > 4) return;
    let nextOwner = owner;
    if (GENERIC_DEFINITION.test(node.type)) {
      const name = node.childForFieldName('name')?.text ?? node.childForFieldName('type')?.text;
      if (name && name.length <= 120) {
        const kind: SymbolKind = /function|method/.test(node.type)
          ? owner
            ? 'method'
            : 'function'
          : /type_spec|type_item|type_declaration/.test(node.type)
            ? 'type'
            : 'class';
        out.push({
          name: owner && kind === 'method' ? `${owner}.${name}` : name,
          kind,
          ...lines(node),
          signature: signatureOf(node, source),
        });
        if (kind !== 'function' && kind !== 'method') nextOwner = name;
      }
    }
    for (const child of node.namedChildren) if (child) visit(child, nextOwner, depth + 1);
  };
  visit(root, null, 0);
  return out;
}

const PLAIN_DEFINITION =
  /^[ \t]*(?:export\s+|pub(?:\([^)]*\))?\s+|public\s+|private\s+|static\s+|async\s+)*(def|class|function|func|fn|sub|proc|interface|struct|enum|trait|module|type)\s+([A-Za-z_$][\w$.]*)/;

/**
 * Files without a grammar (or too big to parse): lines that look like a definition in most languages.
 * A symbol runs to the line before the next one at the same or a shallower indent.
 */
export function plainSymbols(source: string): FileSymbol[] {
  const rows = source.split('\n');
  const found: { name: string; kind: SymbolKind; start: number; indent: number; signature: string }[] = [];
  rows.forEach((row, index) => {
    const match = PLAIN_DEFINITION.exec(row);
    if (!match?.[2]) return;
    const keyword = match[1] as string;
    const kind: SymbolKind = ['def', 'function', 'func', 'fn', 'sub', 'proc'].includes(keyword)
      ? 'function'
      : keyword === 'type'
        ? 'type'
        : 'class';
    found.push({
      name: match[2],
      kind,
      start: index + 1,
      indent: row.length - row.trimStart().length,
      signature: collapse(row),
    });
  });
  return found.map((symbol, index) => {
    const next = found.slice(index + 1).find((other) => other.indent <= symbol.indent);
    return {
      name: symbol.name,
      kind: symbol.kind,
      start: symbol.start,
      end: next ? next.start - 1 : rows.length,
      signature: symbol.signature,
    };
  });
}

/** The definitions in a tree already parsed with `grammar` (a caller that reads the tree for more parses once). */
export function symbolsOfTree(grammar: GrammarName, root: Node, source: string): FileSymbol[] {
  if (grammar === 'python') return pythonSymbols(root, source);
  if (grammar === 'javascript' || grammar === 'typescript' || grammar === 'tsx') return scriptSymbols(root, source);
  return genericSymbols(root, source);
}

/** The definitions of one file: tree-sitter where a grammar exists, the plain scan otherwise. */
export async function extractSymbols(file: string, source: string): Promise<FileSymbol[]> {
  const grammar = grammarFor(file);
  if (!grammar || source.length > MAX_PARSE_BYTES) return plainSymbols(source);
  const parser = await parserFor(grammar);
  const tree = parser.parse(source);
  if (!tree) return plainSymbols(source);
  try {
    return symbolsOfTree(grammar, tree.rootNode, source);
  } finally {
    tree.delete();
  }
}
