import { GbnfMatcher } from '../electron/core/llm/grammar/gbnfMatcher';
import { parseGbnf } from '../electron/core/llm/grammar/gbnfParser';

/** Whole-text acceptance by a grammar, for tests that check a grammar accepts exactly the JSON it should. */
export function gbnfMatcher(grammar: string, rootRule = 'root'): { matches(text: string): boolean } {
  const parsed = parseGbnf(grammar, rootRule);
  if (!parsed.ok) throw new Error(parsed.message);
  return {
    matches(text: string): boolean {
      const matcher = new GbnfMatcher(parsed.grammar);
      return matcher.feed(text) && matcher.mayEnd;
    },
  };
}
