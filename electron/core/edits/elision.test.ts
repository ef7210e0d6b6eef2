import { describe, expect, it } from 'vitest';
import { elidedCodeMessage, findElidedLine } from './elision';

const BEFORE = 'first()\nsecond()\n';
/** A new line put between two lines the file keeps. */
const withLine = (line: string) => findElidedLine(BEFORE, `first()\n${line}\nsecond()\n`);

describe('findElidedLine', () => {
  it.each([
    '// ... existing code ...',
    '... existing code ...',
    '// ... rest of the file unchanged',
    '# rest of the code remains the same',
    '# existing code',
    '// existing code here',
    '// keep existing code',
    '(unchanged)',
    '# ... (unchanged) ...',
    '/* ... existing imports ... */',
    '{/* ... existing JSX ... */}',
    '<!-- rest of the page unchanged -->',
    '-- rest of the query unchanged',
    '; rest of the file unchanged',
    '# omitted for brevity',
    '# ... (omitted) ...',
    '// Other methods remain the same',
    '// rest of Router class unchanged',
    '# the rest of the file is unchanged',
    '// code unchanged',
    '# same as before',
    '// ... more code here ...',
    '// no changes below',
    '# ... other methods ...',
  ])('refuses the placeholder %j wherever it is new', (line) => {
    expect(withLine(line)).toEqual({ line: 2, text: line });
  });

  it.each([
    '# the list is returned unchanged',
    '# leave the file unchanged',
    '# consume the rest of the iterator',
    '// rest of the lines',
    '# None values are omitted',
    '# the order remains the same',
    '# the test remains the same for both',
    '# reuse existing helpers',
    '# fall back to the existing code path',
    '# same as above but for keys',
    '// no change',
    '# unchanged',
    '// nothing changed!',
    '# Other helpers',
    '# Issue809: Ignore semicolons inside BEGIN...END blocks, but handle',
    '#include <stdio.h>',
    '...args,',
    '...unchanged,',
    '[...a]',
    'def f(): ...',
    'return unchanged',
    'unchanged,',
    'pass',
  ])('takes %j for what it is: a comment about code, or code', (line) => {
    expect(withLine(line)).toBeNull();
  });

  it('judges only new lines: a placeholder the file already has is its own', () => {
    const before = 'def f():\n    # ... existing code ...\n    return 1\n';
    expect(findElidedLine(before, before.replace('return 1', 'return 2'))).toBeNull();
  });

  it('counts the line in the new content, 1-based, and finds one in a new file too', () => {
    expect(findElidedLine(null, 'import os\n\n# rest of the file unchanged\n')).toEqual({
      line: 3,
      text: '# rest of the file unchanged',
    });
    expect(findElidedLine('a\r\nb\r\n', 'a\r\n  // ... existing code ...  \r\nb\r\n')).toEqual({
      line: 2,
      text: '// ... existing code ...',
    });
  });

  describe('a lone ellipsis', () => {
    const body = 'def f():\n    a = 1\n    b = 2\n    return a + b\n';

    it('counts where it took the place of code', () => {
      expect(findElidedLine(body, 'def f():\n    ...\n    return a + b\n')).toEqual({ line: 2, text: '...' });
      expect(findElidedLine(body, 'def f():\n    # ...\n    return a + b\n')).toEqual({ line: 2, text: '# ...' });
      expect(findElidedLine('function f() {\n  a();\n}\n', 'function f() {\n  // ...\n}\n')).toEqual({
        line: 2,
        text: '// ...',
      });
      expect(findElidedLine('<ul>\n  <li>a</li>\n  <li>b</li>\n</ul>\n', '<ul>\n  <!-- ... -->\n</ul>\n')).toEqual({
        line: 2,
        text: '<!-- ... -->',
      });
      expect(findElidedLine('int f() {\n  a();\n}\n', 'int f() {\n  /* ... */\n}\n')).toEqual({
        line: 2,
        text: '/* ... */',
      });
    });

    it("is code where nothing was dropped: Python's Ellipsis, stubs, a body that was one line", () => {
      expect(
        findElidedLine('x = 1\n', 'x = 1\n\nclass P(Protocol):\n    def f(self) -> int: ...\n    ...\n'),
      ).toBeNull();
      expect(findElidedLine('def f():\n    pass\n', 'def f():\n    ...\n')).toBeNull();
      expect(findElidedLine(null, 'def f():\n    ...\n')).toBeNull();
      expect(
        findElidedLine('function f(a) {\n  g(a);\n}\n', 'function f(...args) {\n  g(\n    ...args,\n  );\n}\n'),
      ).toBeNull();
    });
  });

  it('words the refusal exactly as the fault simulator expects', () => {
    expect(elidedCodeMessage({ line: 12, text: '// ... existing code ...' })).toBe(
      'line 12 of your answer is a placeholder ("// ... existing code ..."), not code: write out every line you keep, exactly as it is',
    );
  });
});
