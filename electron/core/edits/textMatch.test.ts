import { describe, expect, it } from 'vitest';
import { replaceBlock } from './textMatch';

const FILE = 'import os\nfrom textwrap import dedent\n\nfrom .utils import no_default\n';

describe('replaceBlock, matching a search block line by line', () => {
  it('adds no blank line where the search and the replacement both end with one (the file keeps its own)', () => {
    // Indented by a level the file does not have, so only the loose match finds it.
    const result = replaceBlock(
      FILE,
      '    from textwrap import dedent\n\n',
      '    from textwrap import dedent\n    from types import MethodType\n\n',
    );
    expect(result).toEqual({
      kind: 'replaced',
      content:
        'import os\nfrom textwrap import dedent\nfrom types import MethodType\n\nfrom .utils import no_default\n',
      fuzzy: true,
    });
  });

  it('keeps a blank line the replacement adds beyond the search, and a leading one the search did not have', () => {
    const result = replaceBlock(FILE, '    import os\n', '    import os\n\n    import sys\n');
    expect(result).toMatchObject({
      kind: 'replaced',
      content: 'import os\n\nimport sys\nfrom textwrap import dedent\n\nfrom .utils import no_default\n',
    });
    const leading = replaceBlock(FILE, '\n    import os\n', '\n    import os\n    import re\n');
    expect(leading).toMatchObject({
      content: 'import os\nimport re\nfrom textwrap import dedent\n\nfrom .utils import no_default\n',
    });
  });

  it('moves a blank line the block moves from its start to its end, as the exact block would', () => {
    const file = '  }\n\n  var method = req.method.toLowerCase();\n  if (method) {\n';
    const search = '\n  var method = req.method.toLowerCase();\n';
    const replace =
      "  var method = typeof req.method === 'string'\n    ? req.method.toLowerCase()\n    : req.method\n\n";
    const exact = replaceBlock(file, search, replace);
    const loose = replaceBlock(file, search.replace(/ {2}var/, '    var'), replace.replace(/^ {2}/gm, '    '));
    expect(exact).toMatchObject({ kind: 'replaced', fuzzy: false });
    expect(loose).toMatchObject({ kind: 'replaced', fuzzy: true });
    expect(loose.kind === 'replaced' && loose.content).toBe(exact.kind === 'replaced' && exact.content);
  });
});
