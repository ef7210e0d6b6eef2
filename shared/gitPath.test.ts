import { describe, expect, it } from 'vitest';
import { decodeGitPath, encodeGitPath, hasRawBytes, quoteGitPath } from './gitPath';

const bytes = (...values: number[]) => Uint8Array.from(values);
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

describe('file names as bytes', () => {
  it.each([
    ['Latin-1 é', bytes(...ascii('caf'), 0xe9, ...ascii('.txt'))],
    ['a lone continuation byte', bytes(0x80)],
    ['an overlong slash', bytes(0xc0, 0xaf)],
    ['an encoded surrogate', bytes(0xed, 0xa0, 0x80)],
    ['past U+10FFFF', bytes(0xf4, 0x90, 0x80, 0x80)],
    ['a cut sequence', bytes(...ascii('a'), 0xe2, 0x82)],
    ['bytes that read as an escape', bytes(0xed, 0xb3, 0xa9)],
    ['valid UTF-8 with an astral character', new TextEncoder().encode('naïve 😀 ñ.txt')],
    ['the replacement character itself', new TextEncoder().encode('a\ufffdb')],
    ['control characters', bytes(0x01, 0x0a, 0x09, 0x7f)],
  ])('round-trips %s byte for byte', (_name, raw) => {
    const decoded = decodeGitPath(raw);
    expect([...encodeGitPath(decoded)]).toEqual([...raw]);
    // Through JSON too: what the run's log, state and the window's IPC carry.
    expect([...encodeGitPath(JSON.parse(JSON.stringify(decoded)) as string)]).toEqual([...raw]);
  });

  it('leaves every valid UTF-8 name the string it was', () => {
    for (const name of ['src/stats.js', 'naïve 😀.txt', 'a\ufffdb', '"quoted".txt', '-dash']) {
      expect(decodeGitPath(new TextEncoder().encode(name))).toBe(name);
      expect(hasRawBytes(name)).toBe(false);
    }
    expect(hasRawBytes(decodeGitPath(bytes(...ascii('caf'), 0xe9)))).toBe(true);
  });
});

describe("git's C-style quoting for people", () => {
  it.each([
    ['src/stats.js', 'src/stats.js'],
    ['naïve 😀.txt', 'naïve 😀.txt'],
    [decodeGitPath(bytes(...ascii('caf'), 0xe9, ...ascii('.txt'))), '"caf\\351.txt"'],
    ['new\nline.txt', '"new\\nline.txt"'],
    ['tab\there', '"tab\\there"'],
    ['"quoted".txt', '"\\"quoted\\".txt"'],
    ['back\\slash', '"back\\\\slash"'],
    ['bell\x07\x01\x7f', '"bell\\a\\001\\177"'],
    ['evil\u202Etxt.exe', '"evil\\342\\200\\256txt.exe"'],
    ['-dash.txt', '-dash.txt'],
  ])('%j is shown as %s', (name, shown) => {
    expect(quoteGitPath(name)).toBe(shown);
  });
});
