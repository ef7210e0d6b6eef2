import { describe, expect, it } from 'vitest';
import { LatheError } from '../../../shared/errors';
import { duplicateFileMessage, findDuplicate, type DuplicateCheck } from './duplicateFile';
import { isTestFile } from './policy';

const RESPONSE = Array.from(
  { length: 40 },
  (_, index) =>
    `res.header${index} = function header${index}(value) {\n  this.set('X-${index}', value);\n  return this;\n};\n`,
).join('');
const SQL = Array.from(
  { length: 30 },
  (_, index) =>
    `class Token${index}(TokenBase):\n    """Token number ${index}."""\n    def value_${index}(self):\n        return self.normalized + '${index}'\n\n`,
).join('');
const REQUEST =
  "'use strict';\nmodule.exports = function request(req) {\n  const headers = req.headers;\n  const accepted = headers.accept;\n  return { headers, accepted };\n};\n";
const FILES: Record<string, string> = {
  'lib/response.js': RESPONSE,
  'lib/request.js': REQUEST,
  'sqlparse/sql.py': SQL,
  'sqlparse/utils.py': 'def split(text):\n    return text.split()\n',
  'tests/unit/test_utils.py': 'def test_split():\n    assert split("a b") == ["a", "b"]\n',
  'pkg/__init__.py': 'from .core import run\n',
  'index.js': "module.exports = require('./lib/express');\n",
};
const check: DuplicateCheck = {
  files: Object.keys(FILES),
  read: async (file) => FILES[file] ?? null,
  isTest: isTestFile,
};

describe('findDuplicate', () => {
  it('refuses a new file named as a file elsewhere, naming it', async () => {
    expect(
      await findDuplicate('response.js', 'res.send = function send(body) {\n  return this.end(body);\n};\n', check),
    ).toEqual({ kind: 'name', paths: ['lib/response.js'] });
  });

  it('refuses a copy of a file under another name, the copy of a fix or a snippet under a mistyped name', async () => {
    const fixedCopy = SQL.replace("return self.normalized + '3'", "return self.value + '3'");
    expect(await findDuplicate('sqlparse/sqls.py', fixedCopy, check)).toEqual({
      kind: 'content',
      paths: ['sqlparse/sql.py'],
      share: expect.closeTo(0.99, 2),
      nearNames: [],
    });
    expect(await findDuplicate('sqlparse/tokens_v2.py', fixedCopy, check)).toMatchObject({
      kind: 'content',
      paths: ['sqlparse/sql.py'],
    });
    const snippet =
      'class Token4(TokenBase):\n    """Token number 4."""\n    def value_4(self):\n        return self.value\n';
    expect(await findDuplicate('sqlparse/sqls.py', snippet, check)).toMatchObject({
      kind: 'content',
      paths: ['sqlparse/sql.py'],
    });
  });

  it('lets new files through: a package __init__.py or index.js, a test file, a module of new code', async () => {
    expect(await findDuplicate('newpkg/__init__.py', 'from .core import run\n', check)).toBeNull();
    expect(await findDuplicate('lib/router/index.js', "module.exports = require('./router');\n", check)).toBeNull();
    expect(
      await findDuplicate(
        'tests/integration/test_utils.py',
        'def test_split_many():\n    assert split("a b c") == ["a", "b", "c"]\n',
        check,
      ),
    ).toBeNull();
    const fresh =
      "'use strict';\nconst http = require('http');\n\nmodule.exports = function etag(body) {\n  const hash = digest(body);\n  return `W/\"${hash}\"`;\n};\n\nfunction digest(body) {\n  return String(body.length);\n}\n";
    expect(await findDuplicate('lib/etag.js', fresh, check)).toBeNull();
  });

  it('skips a file it may not read (binary, outside the repository) instead of failing the plan', async () => {
    expect(await findDuplicate('lib/requests.js', REQUEST, check)).toMatchObject({
      kind: 'content',
      paths: ['lib/request.js'],
    });
    const refusing: DuplicateCheck = {
      ...check,
      read: async (file) => {
        if (file === 'lib/request.js')
          throw new LatheError('EDIT_REJECTED', 'binary', { rule: 'binary-content', path: file });
        return FILES[file] ?? null;
      },
    };
    expect(await findDuplicate('lib/requests.js', REQUEST, refusing)).toBeNull();
    const failing: DuplicateCheck = {
      ...check,
      read: async () => Promise.reject(new LatheError('FILE_UNREADABLE', 'EIO', {})),
    };
    await expect(findDuplicate('lib/requests.js', REQUEST, failing)).rejects.toMatchObject({ code: 'FILE_UNREADABLE' });
  });
});

describe('duplicateFileMessage', () => {
  it('asks whether the model meant the existing file, and says what to do', () => {
    expect(duplicateFileMessage('response.js', { kind: 'name', paths: ['lib/response.js'] })).toBe(
      'a file named response.js already exists; did you mean lib/response.js? Change the existing file at its own path instead of creating a new one',
    );
    expect(
      duplicateFileMessage('sqlparse/sqls.py', {
        kind: 'content',
        paths: ['sqlparse/sql.py', 'sqlparse/x.py'],
        share: 0.923,
        nearNames: [],
      }),
    ).toBe(
      'this new file repeats 92% of the lines of sqlparse/sql.py; did you mean sqlparse/sql.py, sqlparse/x.py? Change the existing file at its own path instead of creating a copy',
    );
    // A source file's copy under a misspelled test file's name: both files it could mean are named.
    expect(
      duplicateFileMessage('tests/test_sqls.py', {
        kind: 'content',
        paths: ['sqlparse/sql.py'],
        share: 0.99,
        nearNames: ['tests/test_sql.py'],
      }),
    ).toBe(
      'this new file repeats 99% of the lines of sqlparse/sql.py; did you mean sqlparse/sql.py? (By its name it is closest to tests/test_sql.py.) Change the existing file at its own path instead of creating a copy',
    );
  });
});
