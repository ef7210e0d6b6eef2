import { describe, expect, it } from 'vitest';
import type { Token } from 'node-llama-cpp';
import { matcherForGbnf } from '../grammar/gbnfMatcher';
import { ForcedTokenSteering, type SteeringTokenizer } from './forcedTokens';

/** Greedy longest-match over a small vocabulary: enough of a tokenizer to show which token steering picks. */
function greedyTokenizer(
  vocabulary: readonly string[],
  piecePrefix = '',
): SteeringTokenizer & { text(token: Token | null): string | null } {
  const byLength = [...vocabulary].sort((a, b) => b.length - a.length);
  const id = (piece: string) => vocabulary.indexOf(piece) as Token;
  return {
    tokenize(text) {
      const tokens: Token[] = [];
      for (let at = 0; at < text.length;) {
        const piece = byLength.find((candidate) => text.startsWith(candidate, at));
        if (!piece) throw new Error(`no token for ${text.slice(at)}`);
        tokens.push(id(piece));
        at += piece.length;
      }
      return tokens;
    },
    pieceOf: (token) => `${piecePrefix}${vocabulary[token] ?? ''}`,
    text: (token) => (token === null ? null : (vocabulary[token] ?? null)),
  };
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz'.split('');
const grammar = [
  'root ::= "{" "\\"name\\"" ":" sp "\\"" [a-z]{1,8} "\\"" "," sp "\\"n\\"" ":" sp [0-9] "}"',
  'sp ::= " "?',
  '',
].join('\n');

function steering(vocabulary: readonly string[], piecePrefix = '', gbnf = grammar) {
  const matcher = matcherForGbnf(gbnf);
  if (!matcher) throw new Error('grammar does not parse');
  const tokenizer = greedyTokenizer([...vocabulary, ...LETTERS, ...'0123456789', ' '], piecePrefix);
  return {
    steer: new ForcedTokenSteering(matcher, tokenizer),
    tokenizer,
    answer: (text: string) => matcher.feed(text),
  };
}

describe('forced-token steering', () => {
  it('picks the first token the tokenizer writes for the forced text, and counts it', () => {
    const { steer, tokenizer, answer } = steering(['{"', '{', '"', 'name', '":', ':', ',', '"n', '}']);
    const first = steer.next();
    expect(tokenizer.text(first)).toBe('{"');
    answer('{"');
    expect(tokenizer.text(steer.next())).toBe('name');
    answer('name');
    expect(tokenizer.text(steer.next())).toBe('":');
    expect(steer.steered).toBe(3);
  });

  it('leaves the layout to the model until it has chosen, then repeats its choice', () => {
    const { steer, tokenizer, answer } = steering(['{"', '"', 'name', '":', ',', ' "', '"n', '}']);
    answer('{"name":');
    expect(steer.next()).toBeNull();
    answer(' "abc"');
    expect(tokenizer.text(steer.next())).toBe(',');
    answer(',');
    // The space after `,` is now forced, as the model put one after `:`.
    expect(tokenizer.text(steer.next())).toBe(' "');
  });

  it('leaves a token to the model where the tokenizer would join it with what may follow', () => {
    const quoted = 'root ::= "\\"" [a-z]{1,8} "\\""\n';
    // This tokenizer writes `"a` as one token: a lone `"` before a letter is a split it never makes.
    expect(steering(['"', '"a'], '', quoted).steer.next()).toBeNull();
    const { steer, tokenizer } = steering(['"'], '', quoted);
    expect(tokenizer.text(steer.next())).toBe('"');
  });

  it('picks nothing when the tokenizer puts a space before the text (SentencePiece), or the text left the grammar', () => {
    const spaced = steering(['{"', 'name', '":', '"', ',', '}'], ' ');
    expect(spaced.steer.next()).toBeNull();
    const gone = steering(['{"', 'name', '":', '"', ',', '}']);
    gone.answer('[');
    expect(gone.steer.next()).toBeNull();
    expect(gone.steer.steered).toBe(0);
  });
});
