/**
 * A synthetic byte-level BPE vocabulary in GPT-2's encoding: every byte has a token (so any text
 * tokenizes), then merges of frequent-looking ASCII pairs and triples up to the requested size.
 */

/** GPT-2's bytes_to_unicode: printable bytes map to themselves, the rest to U+0100 onwards. */
export function byteToUnicodeTable(): string[] {
  const table: string[] = new Array<string>(256);
  const printable = (byte: number) =>
    (byte >= 33 && byte <= 126) || (byte >= 161 && byte <= 172) || (byte >= 174 && byte <= 255);
  let next = 0;
  for (let byte = 0; byte < 256; byte++) {
    table[byte] = printable(byte) ? String.fromCodePoint(byte) : String.fromCodePoint(256 + next++);
  }
  return table;
}

export const SPECIAL_TOKENS = ['<|endoftext|>', '<|im_start|>', '<|im_end|>'] as const;

export interface ByteBpeVocab {
  tokens: string[];
  /** 1 = normal, 3 = control (llama.cpp's token attributes). */
  tokenTypes: number[];
  merges: string[];
  specialIds: { endOfText: number; imStart: number; imEnd: number };
}

// Rough English frequency order, so the first merges look like real ones (" t", "he", "in", ...).
const ALPHABET_ORDER =
  ' etaoinshrdlucmfwypvbgkjqxz"{}:,[]._-0123456789ETAOINSHRDLUCMFWYPVBGKJQXZ\n/()=;\'<>!?*#+&%$@\\|~^`\t';

/** Builds a vocabulary of exactly `size` tokens: 256 byte tokens, merges, and the ChatML specials last. */
export function buildByteBpeVocab(size: number): ByteBpeVocab {
  const minimum = 256 + SPECIAL_TOKENS.length;
  if (size < minimum) throw new Error(`a byte-level vocabulary needs at least ${minimum} tokens`);
  const byteTable = byteToUnicodeTable();
  const tokens = [...byteTable];
  const known = new Set(tokens);
  const merges: string[] = [];
  const target = size - SPECIAL_TOKENS.length;
  const alphabet = [...ALPHABET_ORDER].map((char) => byteTable[char.charCodeAt(0)] ?? char);

  const add = (left: string, right: string) => {
    const merged = left + right;
    if (known.has(merged)) return;
    known.add(merged);
    tokens.push(merged);
    merges.push(`${left} ${right}`);
  };
  // Pairs ordered by the sum of their ranks, then longer tokens grown one character at a time.
  const pairs: Array<[number, number]> = [];
  for (let a = 0; a < alphabet.length; a++) for (let b = 0; b < alphabet.length; b++) pairs.push([a, b]);
  pairs.sort((x, y) => x[0] + x[1] - (y[0] + y[1]) || x[0] - y[0]);
  for (const [a, b] of pairs) {
    if (tokens.length >= target) break;
    add(alphabet[a] ?? '', alphabet[b] ?? '');
  }
  let generation = tokens.slice(256);
  while (tokens.length < target) {
    const grown: string[] = [];
    for (const stem of generation) {
      for (const char of alphabet) {
        if (tokens.length >= target) break;
        const before = tokens.length;
        add(stem, char);
        if (tokens.length > before) grown.push(stem + char);
      }
      if (tokens.length >= target) break;
    }
    if (grown.length === 0) throw new Error('could not grow the vocabulary further');
    generation = grown;
  }
  const tokenTypes = tokens.map(() => 1);
  const specialIds = { endOfText: tokens.length, imStart: tokens.length + 1, imEnd: tokens.length + 2 };
  for (const special of SPECIAL_TOKENS) {
    tokens.push(special);
    tokenTypes.push(3);
  }
  return { tokens, tokenTypes, merges, specialIds };
}

export const CHATML_TEMPLATE =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";
