import type { Token } from 'node-llama-cpp';
import type { GbnfMatcher } from '../grammar/gbnfMatcher';

/** What steering needs of a model's tokenizer. */
export interface SteeringTokenizer {
  tokenize(text: string): Token[];
  /** The text one token adds in the middle of an answer (a leading space kept). */
  pieceOf(token: Token): string;
}

/** Enough for the longest key and its punctuation; the rest is looked at again after this token. */
const FORCED_LOOKAHEAD = 32;

/**
 * Forced-token steering (decision 75). Where the grammar leaves only one text — keys, punctuation, the
 * fixed part of an id — the first token of that text is picked for the model instead of being sampled,
 * checked and, when the model wanted something else, refused, which costs llama.cpp a pass of the grammar
 * over the whole vocabulary. Every continuation spells the same characters there, so the answer's text is
 * the same; the token chosen is the one the tokenizer itself would write for that text.
 *
 * A token is picked only if the tokenizer writes it whatever comes after the forced text: where it would
 * join the forced text with what follows (`"` and `Fix` into `"Fix`), the model chooses, since a split it
 * never saw in training is worse than one grammar pass. Once the answer has chosen its layout (a space
 * after `:` and `,` or none), the same choice counts as forced (the matcher learns it).
 */
export class ForcedTokenSteering {
  private readonly firstTokens = new Map<string, Token | null>();
  steered = 0;

  /** `matcher` is fed the answer's text by the caller; steering reads what it forces next. */
  constructor(
    private readonly matcher: GbnfMatcher,
    private readonly tokenizer: SteeringTokenizer,
  ) {}

  /** The token to pick next, or null to let the model sample. */
  next(): Token | null {
    if (this.matcher.isDead) return null;
    const forced = this.matcher.forced(FORCED_LOOKAHEAD);
    if (forced.text === '') return null;
    // Cut at the lookahead, the text's end is not a real end: whatever follows must be left open.
    const followers = forced.text.length >= FORCED_LOOKAHEAD ? null : forced.followers;
    const key = `${followers === null ? '…' : followers.join('')}\u0000${forced.text}`;
    let token = this.firstTokens.get(key);
    if (token === undefined) {
      token = this.firstToken(forced.text, followers);
      this.firstTokens.set(key, token);
    }
    if (token !== null) this.steered++;
    return token;
  }

  /**
   * The tokenizer's first token for the text, if it stays the first token whatever follows (each
   * follower tried); a token the grammar would refuse here (a SentencePiece space prefix) is none.
   */
  private firstToken(text: string, followers: readonly string[] | null): Token | null {
    const first = this.tokenizer.tokenize(text)[0];
    if (first === undefined) return null;
    const piece = this.tokenizer.pieceOf(first);
    if (piece === '' || !text.startsWith(piece)) return null;
    if (followers === null) return piece.length < text.length ? first : null;
    for (const follower of followers) {
      if (this.tokenizer.tokenize(text + follower)[0] !== first) return null;
    }
    return first;
  }
}
