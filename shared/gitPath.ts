/**
 * File names as git stores them are bytes, not text: `caf\xe9.txt` (Latin-1), a name with a newline,
 * one with a byte that is no UTF-8 at all. Lathe carries them as strings everywhere (JSON, IPC, zod),
 * so each name is decoded losslessly: valid UTF-8 as itself, and every byte that is not part of a
 * valid UTF-8 sequence as the lone surrogate U+DC80–U+DCFF (Python's "surrogateescape", PEP 383). A
 * valid UTF-8 name is the string it always was; no valid name decodes to a lone surrogate, so the
 * bytes come back exactly (`encodeGitPath`). JSON writes lone surrogates as `\udcXX` and reads them back.
 */

const ESCAPE_BASE = 0xdc00;

/** The name's bytes as a string, each byte that is not valid UTF-8 as U+DC80–U+DCFF. */
export function decodeGitPath(bytes: Uint8Array): string {
  let out = '';
  let plainFrom = 0;
  let index = 0;
  const flushPlain = (end: number) => {
    if (end > plainFrom) out += utf8.decode(bytes.subarray(plainFrom, end));
  };
  while (index < bytes.length) {
    const length = validSequenceLength(bytes, index);
    if (length > 0) {
      index += length;
      continue;
    }
    flushPlain(index);
    out += String.fromCharCode(ESCAPE_BASE + (bytes[index] as number));
    index += 1;
    plainFrom = index;
  }
  flushPlain(index);
  return out;
}

/** The bytes `decodeGitPath` read the name from. */
export function encodeGitPath(name: string): Uint8Array {
  if (!hasRawBytes(name)) return encoder.encode(name);
  const parts: Uint8Array[] = [];
  let plainFrom = 0;
  for (let index = 0; index < name.length; index++) {
    if (!isEscapedByte(name, index)) continue;
    if (index > plainFrom) parts.push(encoder.encode(name.slice(plainFrom, index)));
    parts.push(Uint8Array.of(name.charCodeAt(index) - ESCAPE_BASE));
    plainFrom = index + 1;
  }
  if (plainFrom < name.length) parts.push(encoder.encode(name.slice(plainFrom)));
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Whether the name holds a byte that is not UTF-8 (so it cannot be an argument or a plain string path). */
export function hasRawBytes(name: string): boolean {
  return RAW_BYTE.test(name);
}

/**
 * How a name is shown to a person, in git's C-style quoting (what `git status` prints): as it is when
 * nothing in it needs escaping; otherwise in double quotes, with `\a \b \t \n \v \f \r \" \\` and
 * octal `\ooo` for any other control character, each byte that is not UTF-8, and the invisible
 * characters that can make a name read as another (bidi overrides, zero-width joiners).
 */
export function quoteGitPath(name: string): string {
  if (!NEEDS_QUOTING.test(name)) return name;
  let out = '"';
  for (let index = 0; index < name.length; index++) {
    const code = name.charCodeAt(index);
    if (isEscapedByte(name, index)) {
      out += octal(code - ESCAPE_BASE);
      continue;
    }
    const char = name[index] as string;
    const named = NAMED_ESCAPES[char];
    if (named) out += named;
    else if (code < 0x20 || code === 0x7f) out += octal(code);
    else if (INVISIBLE.test(char)) for (const byte of encoder.encode(char)) out += octal(byte);
    else out += char;
  }
  return `${out}"`;
}

const utf8 = new TextDecoder('utf-8');
const encoder = new TextEncoder();
/** A low surrogate U+DC80–U+DCFF with no high surrogate before it: an escaped byte, never a character. */
const RAW_BYTE = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/;
const INVISIBLE = /[\u0080-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/;
const NEEDS_QUOTING = new RegExp(`[\\u0000-\\u001f"\\\\\\u007f]|${RAW_BYTE.source}|${INVISIBLE.source}`);
const NAMED_ESCAPES: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\t': '\\t',
  '\n': '\\n',
  '\v': '\\v',
  '\f': '\\f',
  '\r': '\\r',
  '"': '\\"',
  '\\': '\\\\',
};

function octal(byte: number): string {
  return `\\${byte.toString(8).padStart(3, '0')}`;
}

function isEscapedByte(name: string, index: number): boolean {
  const code = name.charCodeAt(index);
  if (code < 0xdc80 || code > 0xdcff) return false;
  const before = index > 0 ? name.charCodeAt(index - 1) : 0;
  return !(before >= 0xd800 && before <= 0xdbff);
}

/** Length of the valid UTF-8 sequence at `index` (shortest form, no surrogates, at most U+10FFFF), or 0. */
function validSequenceLength(bytes: Uint8Array, index: number): number {
  const first = bytes[index] as number;
  if (first < 0x80) return 1;
  const continuation = (offset: number, low = 0x80, high = 0xbf) => {
    const byte = bytes[index + offset];
    return byte !== undefined && byte >= low && byte <= high;
  };
  if (first >= 0xc2 && first <= 0xdf) return continuation(1) ? 2 : 0;
  if (first >= 0xe0 && first <= 0xef) {
    const [low, high] = first === 0xe0 ? [0xa0, 0xbf] : first === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
    return continuation(1, low, high) && continuation(2) ? 3 : 0;
  }
  if (first >= 0xf0 && first <= 0xf4) {
    const [low, high] = first === 0xf0 ? [0x90, 0xbf] : first === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    return continuation(1, low, high) && continuation(2) && continuation(3) ? 4 : 0;
  }
  return 0;
}
