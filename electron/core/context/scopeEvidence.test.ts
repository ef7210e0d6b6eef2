import { describe, expect, it } from 'vitest';
import { indexEvidence, namesFile, namesIdentifier, namesRename } from './scopeEvidence';

const index = (...texts: string[]) => indexEvidence({ texts, files: ['lib/response.js'] });

describe('namesIdentifier', () => {
  it('matches the last component as a word, the first letter in either case', () => {
    expect(namesIdentifier(index('fix(res.send): add Content-Length'), 'res.send')).toBe(true);
    expect(namesIdentifier(index('implement compose.__hash__'), 'Compose')).toBe(true);
    expect(namesIdentifier(index('implement compose.__hash__'), 'Compose.__hash__')).toBe(true);
  });

  it('keeps the inner case: sendfile does not name sendFile, another method', () => {
    expect(namesIdentifier(index('"Request aborted" logged in res.sendfile'), 'res.sendFile')).toBe(false);
    expect(namesIdentifier(index('"Request aborted" logged in res.sendfile'), 'res.sendfile')).toBe(true);
  });

  it('names a compound identifier by a run of more than half its pieces in one identifier of the evidence', () => {
    expect(namesIdentifier(index('Fix stability in running_min and running_max'), '_windowed_running_min')).toBe(true);
    expect(namesIdentifier(index('fix(joinRelativeURL): handle base with protocol'), 'joinURL')).toBe(false);
    expect(namesIdentifier(index('fix(joinRelativeURL): handle base with protocol'), 'joinRelativeURL')).toBe(true);
  });

  it('does not split prose: "matching" and "group" in a sentence do not name _group_matching', () => {
    expect(namesIdentifier(index('the group is skipped, matching the sibling checks'), '_group_matching')).toBe(false);
    expect(namesIdentifier(index('the group_matching step'), '_group_matching')).toBe(true);
  });
});

describe('namesRename', () => {
  it('needs both names as words', () => {
    expect(namesRename(index('rename total to subtotal'), [['total', 'subtotal']])).toBe(true);
    expect(namesRename(index('fix the url handling'), [['url', 'urlValue']])).toBe(false);
  });
});

describe('namesFile and aboutDocs', () => {
  it('names a file listed, or written as a path or a file name in a text (a stack frame included)', () => {
    expect(namesFile(index('x'), 'lib/response.js')).toBe('listed');
    expect(namesFile(index('at send (/repo/lib/router/route.js:12:3)'), 'lib/router/route.js')).toBe('written');
    expect(namesFile(index('see utils.ts'), 'src/utils.ts')).toBe('written');
    expect(namesFile(index('see myutils.ts'), 'src/utils.ts')).toBeNull();
  });

  it('knows a task about documentation, comments or style', () => {
    expect(index('docs: fix typos').aboutDocs).toBe(true);
    expect(index('Fix whitespace').aboutDocs).toBe(true);
    expect(index('fix the rounding of tax()').aboutDocs).toBe(false);
    // Read from what the task says when that is given: a test log's "style" or "documents" is not the task's.
    const log = '  ✓ res.render() applies the style of the documents';
    expect(indexEvidence({ texts: ['fix redirect', log], files: [] }).aboutDocs).toBe(true);
    expect(indexEvidence({ texts: ['fix redirect', log], files: [], about: ['fix redirect'] }).aboutDocs).toBe(false);
    expect(indexEvidence({ texts: [log], files: [], about: ['docs: fix typos'] }).aboutDocs).toBe(true);
  });
});
