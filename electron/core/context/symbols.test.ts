import { describe, expect, it } from 'vitest';
import { extractSymbols, plainSymbols } from './symbols';

const names = (symbols: { name: string; kind: string; start: number; end: number }[]) =>
  symbols.map(({ name, kind, start, end }) => `${kind} ${name} ${start}-${end}`);

describe('extractSymbols (tree-sitter WASM grammars)', () => {
  it('maps Python functions, classes and their methods with lines and signatures', async () => {
    const source = [
      'import os',
      '',
      'def partition_all(n, seq):',
      '    return seq',
      '',
      '@decorator',
      'class Compose(object):',
      '    def __call__(self, *args):',
      '        return 1',
      '',
    ].join('\n');
    const symbols = await extractSymbols('toolz/functoolz.py', source);
    expect(names(symbols)).toEqual(['function partition_all 3-4', 'class Compose 6-9', 'method Compose.__call__ 8-9']);
    expect(symbols[0]?.signature).toBe('def partition_all(n, seq)');
  });

  it('maps TypeScript exports, classes, methods and arrow functions', async () => {
    const source = [
      'export function withBase(input: string, base: string): string {',
      '  return base + input;',
      '}',
      'export const joinURL = (a: string) => a;',
      'class Parser {',
      '  parse(args: string[]): void {}',
      '}',
      'interface Options { strict: boolean }',
    ].join('\n');
    const symbols = await extractSymbols('src/utils.ts', source);
    expect(names(symbols)).toEqual([
      'function withBase 1-3',
      'function joinURL 4-4',
      'class Parser 5-7',
      'method Parser.parse 6-6',
      'type Options 8-8',
    ]);
    expect(symbols[0]?.signature).toBe('function withBase(input: string, base: string): string');
  });

  it('maps CommonJS member assignments (express style) in JavaScript', async () => {
    const source = [
      'var res = Object.create(http.ServerResponse.prototype);',
      'res.send = function send(body) {',
      '  return this;',
      '};',
      'module.exports = res;',
    ].join('\n');
    const symbols = await extractSymbols('lib/response.js', source);
    expect(names(symbols)).toContain('function res.send 2-4');
  });

  it('maps the functions nested in a long function, where real fixes often land', async () => {
    const body = Array.from({ length: 45 }, (_, index) => `    const v${index} = ${index};`).join('\n');
    const source = [
      'class YargsParser {',
      '  parse(args) {',
      '    function isUnknownOption(arg) {',
      '      return false;',
      '    }',
      body,
      '  }',
      '}',
    ].join('\n');
    const symbols = await extractSymbols('lib/yargs-parser.js', source);
    expect(names(symbols)).toContain('function YargsParser.parse.isUnknownOption 3-5');
  });

  it('falls back to a plain scan for files without a grammar', async () => {
    const source = ['proc build {} {', '  return 1', '}', 'sub helper {', '}'].join('\n');
    expect(names(await extractSymbols('tools/build.tcl', source))).toEqual(names(plainSymbols(source)));
    expect(names(plainSymbols(source))).toEqual(['function build 1-3', 'function helper 4-5']);
  });
});
