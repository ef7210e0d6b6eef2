import { describe, expect, it } from 'vitest';
import { editDistance, nearestPaths } from './nearestPaths';

const FILES = [
  'index.js',
  'lib/application.js',
  'lib/request.js',
  'lib/response.js',
  'lib/router/index.js',
  'sqlparse/sql.py',
  'sqlparse/engine/grouping.py',
  'test/res.send.js',
  'docs/response.md',
];

describe('nearestPaths', () => {
  it('offers the same file name in another folder first', () => {
    expect(nearestPaths('response.js', FILES)).toEqual(['lib/response.js']);
    expect(nearestPaths('src/Response.js', FILES)[0]).toBe('lib/response.js');
  });

  it('then a mistyped name with the same extension, then any path a few edits away', () => {
    expect(nearestPaths('sqlparse/sqls.py', FILES)).toEqual(['sqlparse/sql.py']);
    expect(nearestPaths('lib/respons.js', FILES)).toEqual(['lib/response.js']);
    expect(nearestPaths('sqlparse/engine/grouping.pyx', FILES)).toEqual(['sqlparse/engine/grouping.py']);
  });

  it('offers at most three, nearest first, and nothing when nothing is near', () => {
    const many = ['a/util.py', 'b/util.py', 'c/d/util.py', 'e/f/g/util.py'];
    expect(nearestPaths('util.py', many)).toEqual(['a/util.py', 'b/util.py', 'c/d/util.py']);
    expect(nearestPaths('src/brand_new_module.py', FILES)).toEqual([]);
    expect(nearestPaths('lib/response.js', FILES)).toEqual([]);
  });
});

describe('editDistance', () => {
  it('counts edits and gives up past its limit', () => {
    expect(editDistance('sql.py', 'sqls.py')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('kitten', 'sitting', 2)).toBe(Infinity);
  });
});
