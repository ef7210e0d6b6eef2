import { describe, expect, it } from 'vitest';
import { indentStyleOf, toIndentStyle } from './indentStyle';

describe('indentStyleOf', () => {
  it('reads spaces with their width, tabs, or nothing to keep', () => {
    expect(indentStyleOf(['class K:', '    def f(self):', '        return 1'])).toEqual({ kind: 'spaces', width: 4 });
    expect(indentStyleOf(['function f() {', '  if (x) {', '    y();', '  }', '}'])).toEqual({
      kind: 'spaces',
      width: 2,
    });
    expect(indentStyleOf(['/**', ' * doc', ' */', 'func f() {', '\treturn', '}'])).toEqual({ kind: 'tabs' });
    expect(indentStyleOf(['a = 1', 'b = 2'])).toBeNull();
  });
});

describe('toIndentStyle', () => {
  it('turns tabs into the file width of spaces, level for level', () => {
    expect(toIndentStyle(['\tdef f(self):', '\t\treturn 1'], { kind: 'spaces', width: 4 })).toEqual([
      '    def f(self):',
      '        return 1',
    ]);
  });

  it("turns the block's own space levels into tabs, keeping alignment spaces", () => {
    expect(toIndentStyle(['  if (x) {', '    y(a,', '      b);', '  }'], { kind: 'tabs' })).toEqual([
      '\tif (x) {',
      '\t\ty(a,',
      '\t\t\tb);',
      '\t}',
    ]);
    expect(toIndentStyle(['    if x {', '        f(a,', '          b)', '    }'], { kind: 'tabs' })).toEqual([
      '\tif x {',
      '\t\tf(a,',
      '\t\t  b)',
      '\t}',
    ]);
  });

  it('leaves a block that already matches, and any block for a file with no indentation', () => {
    expect(toIndentStyle(['    x = 1'], { kind: 'spaces', width: 4 })).toEqual(['    x = 1']);
    expect(toIndentStyle(['\tx = 1'], null)).toEqual(['\tx = 1']);
  });
});
