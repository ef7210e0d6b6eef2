import { describe, expect, it } from 'vitest';
import { closestRegion, describeClosestRegion } from './closestRegion';

/** A module of `count` small functions, 4 lines each, so function k starts at line 4k+1. */
function moduleOf(count: number): string {
  return Array.from(
    { length: count },
    (_, index) => `def f${index}(x):\n    y = x * ${index}\n    return transform(y, ${index})\n\n`,
  ).join('');
}

describe('closestRegion', () => {
  it('finds where a block with a misremembered line belongs, and that line', () => {
    const search = 'def f7(x):\n    y = x * 7\n    return transformed(y, 7)\n';
    expect(closestRegion(moduleOf(20), search)).toEqual({
      first: 29,
      last: 31,
      matched: 2,
      total: 3,
      differences: [
        { kind: 'changed', fileLine: 31, file: 'return transform(y, 7)', block: 'return transformed(y, 7)' },
      ],
    });
  });

  it('says which file lines the block left out and which of its lines the file does not have', () => {
    const file = 'a = 1\nb = 2\nc = 3\nd = 4\ne = 5\n';
    expect(closestRegion(file, 'a = 1\nc = 3\nd = 4\n')?.differences).toEqual([
      { kind: 'missing', fileLine: 2, file: 'b = 2' },
    ]);
    expect(closestRegion(file, 'b = 2\nc = 3\nx = 9\nd = 4\n')).toMatchObject({
      first: 2,
      last: 4,
      matched: 3,
      total: 4,
      differences: [{ kind: 'extra', afterLine: 3, block: 'x = 9' }],
    });
  });

  it('finds a one-line block by its words, and nothing where nothing is alike', () => {
    expect(closestRegion(moduleOf(5), 'return transfrom(y, 3)')).toMatchObject({
      first: 15,
      last: 15,
      matched: 0,
      total: 1,
    });
    expect(closestRegion(moduleOf(5), 'console.log("hello world");\nprocess.exit(1);\n')).toBeNull();
    expect(closestRegion('', 'x = 1')).toBeNull();
  });

  it('between lines alike word for word, picks the one whose characters are closest to a misspelled word', () => {
    // express-3d10279: 'ECONNABORT' misremembered as 'ECNNABORT'; an earlier line says 'ECONNABORTED'.
    const file = [
      "    if (err && err.code !== 'ECONNABORTED' && err.syscall !== 'write') {",
      '      next(err);',
      '    }',
      "    if (err && err.code !== 'ECONNABORT' && err.syscall !== 'write') {",
      '      next(err);',
      '    }',
      '',
    ].join('\n');
    const region = closestRegion(file, "    if (err && err.code !== 'ECNNABORT' && err.syscall !== 'write') {\n");
    expect(region).toMatchObject({ first: 4, last: 4 });
  });

  it('scores a 5,000-line file in well under a second', () => {
    const file = moduleOf(1250);
    const search =
      'def f1111(x):\n    y = x * 1111\n    return transform(y, 1112)\n\ndef f1112(x):\n    y = x * 1112\n';
    const started = performance.now();
    const region = closestRegion(file, search);
    expect(performance.now() - started).toBeLessThan(500);
    expect(region).toMatchObject({ first: 4445, last: 4450, matched: 5, total: 6 });
  });
});

describe('describeClosestRegion', () => {
  it('words the region, the count and each difference for the model', () => {
    const search = 'def f7(x):\n    y = x * 7\n    return transformed(y, 7)\n';
    expect(describeClosestRegion(moduleOf(20), search, 'search')).toBe(
      [
        'the closest region is lines 29-31 (2 of 3 lines match); these lines differ:',
        'line 31 is "return transform(y, 7)", your search has "return transformed(y, 7)"',
        'copy the lines from the file into your search exactly as they are',
      ].join('\n'),
    );
    expect(describeClosestRegion('a = 1\n', 'a = 1', 'hunk')).toBe(
      'the closest region is line 1, where all 1 lines match',
    );
    expect(describeClosestRegion(moduleOf(5), 'console.log("hello world");', 'hunk')).toBe(
      'nothing in the file resembles your hunk; read the file again and copy the lines to change exactly as they are',
    );
  });

  it('stays under 1,500 characters however many lines differ or however long they are', () => {
    const long = 'x'.repeat(500);
    const file = Array.from({ length: 60 }, (_, index) => `value_${index} = compute(${index}) ${long}`).join('\n');
    const search = Array.from({ length: 60 }, (_, index) =>
      index % 2 ? `value_${index} = compute(${index}) ${long}` : `value_${index} = other(${index})`,
    ).join('\n');
    const message = describeClosestRegion(file, search, 'search');
    expect(message.length).toBeLessThan(1500);
    expect(message).toMatch(/^the closest region is lines 1-60 \(30 of 60 lines match\)/);
    expect(message).toMatch(/\(and \d+ more\)\ncopy the lines/);
  });
});
