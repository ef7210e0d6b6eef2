import type { Tree, TreeCursor } from 'web-tree-sitter';
import { LatheError } from '../../../shared/errors';
import { grammarFor, parserFor } from './grammars';
import { MAX_PARSE_BYTES, plainSymbols, symbolsOfTree, type FileSymbol } from './symbols';

/** One lexical token of a file, lines 1-based and inclusive (a string or a block comment may span several). */
export interface CodeToken {
  text: string;
  /** An identifier (a variable, property, type or function name), as opposed to a keyword, literal or punctuation. */
  isName: boolean;
  /** A name after a dot, a property key or a keyword argument: `b` in `a.b`, not the variable `b`. */
  isMember: boolean;
  /** A comment, or a Python string standing alone as a statement (a docstring): text that does not run. */
  isComment: boolean;
  start: number;
  end: number;
}

/** Leaves whose parts would hide their text: a string is one token, so a changed literal is never read as a rename. */
const ATOMIC = /string|regex|comment|heredoc|char_literal|jsx_text/;
const NAME = /identifier$/;
const MEMBER_TYPES = new Set(['property_identifier', 'private_property_identifier', 'field_identifier']);
const PLAIN_TOKEN = /[A-Za-z_$][\w$]*|\d[\w.]*|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\S/g;

function isPythonDocstring(cursor: TreeCursor, grammar: string): boolean {
  if (grammar !== 'python' || cursor.nodeType !== 'expression_statement') return false;
  const named = cursor.currentNode.namedChildren;
  return named.length === 1 && (named[0]?.type === 'string' || named[0]?.type === 'concatenated_string');
}

/** Python marks members by their place, not their type: `a.b`'s attribute, `f(b=1)`'s keyword. */
function isMember(cursor: TreeCursor): boolean {
  if (MEMBER_TYPES.has(cursor.nodeType)) return true;
  const field = cursor.currentFieldName;
  return field === 'attribute' || (field === 'name' && cursor.currentNode.parent?.type === 'keyword_argument');
}

/**
 * The tokens of lines `first`..`last` (whole tokens that touch them): leaves, with strings, regexes and
 * comments whole. Subtrees outside the lines are skipped, so a hunk of a 5,000-line file costs little.
 */
function treeTokens(tree: Tree, grammar: string, first: number, last: number): CodeToken[] {
  const tokens: CodeToken[] = [];
  const cursor = tree.walk();
  try {
    for (;;) {
      const start = cursor.startPosition.row + 1;
      const end = cursor.endPosition.row + 1;
      const overlaps = start <= last && end >= first;
      const type = cursor.nodeType;
      const docstring = overlaps && isPythonDocstring(cursor, grammar);
      if (!overlaps) {
        // Outside the lines: neither this node nor its children.
      } else if (docstring || (cursor.nodeIsNamed && ATOMIC.test(type))) {
        tokens.push({
          text: cursor.nodeText,
          isName: false,
          isMember: false,
          isComment: docstring || type.includes('comment'),
          start,
          end,
        });
      } else if (cursor.gotoFirstChild()) {
        continue;
      } else if (cursor.endIndex > cursor.startIndex) {
        const isName = NAME.test(type);
        tokens.push({
          text: cursor.nodeText,
          isName,
          isMember: isName && isMember(cursor),
          isComment: false,
          start,
          end,
        });
      }
      while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return tokens;
    }
  } finally {
    cursor.delete();
  }
}

/**
 * Files without a grammar: words, quoted strings and single characters, none of them a comment and none
 * a name (a word changed in prose or config is an edit, not a rename).
 */
function plainTokens(rows: readonly string[], first: number, last: number): CodeToken[] {
  const tokens: CodeToken[] = [];
  for (let line = Math.max(1, first); line <= Math.min(last, rows.length); line++) {
    for (const match of (rows[line - 1] ?? '').matchAll(PLAIN_TOKEN))
      tokens.push({ text: match[0], isName: false, isMember: false, isComment: false, start: line, end: line });
  }
  return tokens;
}

/** A file read for its tokens and definitions; `close()` frees its syntax tree. */
export interface ParsedSource {
  /** Line count (a final newline ends the last line, it does not start another). */
  lines: number;
  symbols: FileSymbol[];
  /** The tokens touching lines `first`..`first + count - 1`. */
  tokensIn(first: number, count: number): CodeToken[];
  close(): void;
}

/** Parses once for both the definitions and the tokens: tree-sitter where a grammar exists, a plain scan otherwise. */
export async function parseSource(file: string, source: string): Promise<ParsedSource> {
  const rows = source.split('\n');
  const lines = rows.length - (source.endsWith('\n') ? 1 : 0);
  const grammar = grammarFor(file);
  const tree = grammar && source.length <= MAX_PARSE_BYTES ? (await parserFor(grammar)).parse(source) : null;
  if (!grammar || !tree)
    return {
      lines,
      symbols: plainSymbols(source),
      tokensIn: (first, count) => (count > 0 ? plainTokens(rows, first, first + count - 1) : []),
      close: () => undefined,
    };
  const symbols = symbolsOfTree(grammar, tree.rootNode, source);
  let closed = false;
  return {
    lines,
    symbols,
    tokensIn: (first, count) => {
      if (closed) throw new LatheError('INTERNAL', `${file}: tokens read after its syntax tree was freed`);
      return count > 0 ? treeTokens(tree, grammar, first, first + count - 1) : [];
    },
    close: () => {
      if (!closed) tree.delete();
      closed = true;
    },
  };
}

/** Every token of a file. */
export async function codeTokens(file: string, source: string): Promise<CodeToken[]> {
  const parsed = await parseSource(file, source);
  try {
    return parsed.tokensIn(1, parsed.lines);
  } finally {
    parsed.close();
  }
}
