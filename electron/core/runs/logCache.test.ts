import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../test-support/tempRepo';
import { RunLogCache } from './logCache';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

const line = (seq: number) =>
  `${JSON.stringify({ ts: 't', seq, run_id: 'r', role: 'engine', type: 'x', data: { seq } })}\n`;

describe('RunLogCache', () => {
  it('parses only what was appended since the last read, and ignores a line still being written', () => {
    const dir = makeTempDir();
    dirs.push(dir);
    const file = path.join(dir, 'log.jsonl');
    const cache = new RunLogCache();
    expect(cache.read(file)).toEqual([]);
    fs.writeFileSync(file, line(1) + line(2));
    const first = cache.read(file);
    expect(first.map((event) => event.seq)).toEqual([1, 2]);
    fs.appendFileSync(file, line(3) + '{"ts":"t","seq":4');
    expect(cache.read(file).map((event) => event.seq)).toEqual([1, 2, 3]);
    expect(cache.read(file)[0]).toBe(first[0]);
    fs.appendFileSync(file, ',"run_id":"r","role":"engine","type":"x","data":{}}\n');
    expect(cache.read(file).map((event) => event.seq)).toEqual([1, 2, 3, 4]);
  });

  it('starts over when the file shrinks (a repaired torn line, or another run)', () => {
    const dir = makeTempDir();
    dirs.push(dir);
    const file = path.join(dir, 'log.jsonl');
    const cache = new RunLogCache();
    fs.writeFileSync(file, line(1) + line(2) + line(3));
    expect(cache.read(file)).toHaveLength(3);
    fs.writeFileSync(file, line(7));
    expect(cache.read(file).map((event) => event.seq)).toEqual([7]);
  });

  it('names the line of a log changed outside Lathe, and reads a repaired file again', () => {
    const dir = makeTempDir();
    dirs.push(dir);
    const file = path.join(dir, 'log.jsonl');
    const cache = new RunLogCache();
    fs.writeFileSync(file, line(1) + '{"seq": "two"}\n' + line(3));
    expect(() => cache.read(file)).toThrow(
      expect.objectContaining({ code: 'RUN_LOG_INVALID', message: expect.stringContaining('line 2 of') }),
    );
    fs.writeFileSync(file, 'not json\n');
    expect(() => cache.read(file)).toThrow(
      expect.objectContaining({ code: 'RUN_LOG_INVALID', message: expect.stringContaining('line 1 of') }),
    );
    fs.writeFileSync(file, line(1) + '\n' + line(2));
    expect(cache.read(file).map((event) => event.seq)).toEqual([1, 2]);
    fs.appendFileSync(file, '{}\n');
    expect(() => cache.read(file)).toThrow(expect.objectContaining({ message: expect.stringContaining('line 4 of') }));
  });

  it('keeps at most 16 logs parsed, dropping the least recently read', () => {
    const dir = makeTempDir();
    dirs.push(dir);
    const cache = new RunLogCache();
    const files = Array.from({ length: 20 }, (_, index) => path.join(dir, `log-${index}.jsonl`));
    for (const file of files) fs.writeFileSync(file, line(1));
    const first = cache.read(files[0] as string);
    for (const file of files.slice(1, 16)) cache.read(file);
    expect(cache.read(files[0] as string)[0]).toBe(first[0]);
    for (const file of files.slice(16)) cache.read(file);
    expect(cache.size).toBe(16);
    expect(cache.read(files[0] as string)[0]).toBe(first[0]);
    expect(cache.read(files[1] as string)).toHaveLength(1);
    expect(cache.size).toBe(16);
  });
});
