import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentErrorSchema } from '../../../../shared/schemas/agents/agentError';
import { PlanSchema } from '../../../../shared/schemas/agents/planner';
import { type GbnfMatcher, matcherForGbnf } from './gbnfMatcher';
import { parseGbnf } from './gbnfParser';
import { grammarForSchema } from '.';

function matcher(gbnf: string): GbnfMatcher {
  const made = matcherForGbnf(gbnf);
  if (!made) throw new Error(`does not parse: ${gbnf}`);
  return made;
}

const planGrammar = () => matcher(grammarForSchema(z.union([PlanSchema, AgentErrorSchema])).gbnf);

describe('GbnfMatcher: the text a grammar forces next', () => {
  it('follows a plan answer and names the text no choice is left in', () => {
    const plan = planGrammar();
    expect(plan.forced(32)).toEqual({ text: '{"', mayEnd: false, followers: ['p', 's'] });
    expect(plan.feed('{"p')).toBe(true);
    // The key's rest and its colon; then the optional space is a choice.
    expect(plan.forced(32).text).toBe('lan_id":');
    expect(plan.feed('lan_id":')).toBe(true);
    expect(plan.forced(32).text).toBe('');
    expect(plan.feed(' ')).toBe(true);
    expect(plan.forced(32)).toEqual({ text: '"plan_', mayEnd: false, followers: ['0'] });
    expect(plan.forced(3).text).toBe('"pl');
  });

  it("learns the layout from the answer's first choice and takes it as made from then on", () => {
    const spaced = planGrammar();
    spaced.feed('{"plan_id":');
    expect(spaced.layout).toBeNull();
    expect(spaced.forced(32).text).toBe('');
    spaced.feed(' "plan_0001",');
    expect(spaced.layout).toBe('space');
    expect(spaced.forced(32).text).toBe(' "tasks": [{"id": "T');

    const compact = planGrammar();
    compact.feed('{"plan_id":"plan_0001",');
    expect(compact.layout).toBe('none');
    expect(compact.forced(32).text).toBe('"tasks":[{"id":"T');
    // Learnt, not imposed: the grammar still takes the other layout.
    expect(compact.feed(' "tasks": [')).toBe(true);
  });

  it('has no layout to learn in a grammar without the layout rule', () => {
    const plain = matcher('root ::= "a" " "? "b"\n');
    plain.feed('a ');
    expect(plain.layout).toBeNull();
  });

  it('is complete after a whole answer and dead after anything more', () => {
    const plan = planGrammar();
    const answer = JSON.stringify({ status: 'error', reason: 'no tests' });
    expect(plan.feed(answer.slice(0, -1))).toBe(true);
    expect(plan.isComplete).toBe(false);
    expect(plan.forced(32)).toMatchObject({ text: '}', mayEnd: true });
    expect(plan.feed('}')).toBe(true);
    expect(plan.isComplete).toBe(true);
    expect(plan.feed(' ')).toBe(false);
    expect(plan.isDead).toBe(true);
    expect(plan.forced(32).text).toBe('');
  });

  it('counts bounded repetitions: forced below the minimum, free between, closed at the maximum', () => {
    const xs = matcher('root ::= [x]{2,3}\n');
    expect(xs.forced(8).text).toBe('xx');
    xs.feed('xx');
    expect(xs.forced(8)).toEqual({ text: '', mayEnd: true, followers: ['x'] });
    expect(xs.isComplete).toBe(false);
    xs.feed('x');
    expect(xs.isComplete).toBe(true);
    expect(xs.feed('x')).toBe(false);
  });

  it('reads what the compiler writes and what people write: comments, groups over lines, escapes, any-char', () => {
    const gbnf = [
      '# a comment',
      'root ::= item ("," item)* # trailing',
      'item ::= (',
      '  "\\x41" | [^,\\n]',
      ') .?',
      '',
    ].join('\n');
    const items = matcher(gbnf);
    expect(items.feed('A,b!,c')).toBe(true);
    expect(items.mayEnd).toBe(true);
    expect(matcher(gbnf).feed(',')).toBe(false);
  });

  it('refuses grammars it cannot follow instead of guessing', () => {
    expect(parseGbnf('root ::= missing\n')).toMatchObject({ ok: false, message: expect.stringContaining('missing') });
    expect(parseGbnf('root ::= "open\n')).toMatchObject({
      ok: false,
      message: expect.stringContaining('unterminated'),
    });
    expect(parseGbnf('root ::= [a]{3,1}\n')).toMatchObject({ ok: false });
    expect(parseGbnf('other ::= "a"\n')).toMatchObject({ ok: false, message: 'no rule root' });
  });

  it('gives up on left recursion rather than looping', () => {
    const left = matcher('root ::= root "a" | "b"\n');
    expect(left.isDead).toBe(true);
    expect(left.feed('b')).toBe(false);
  });

  it('takes empty iterations without looping', () => {
    const empty = matcher('root ::= ("a"?)* "b"\n');
    expect(empty.forced(4).text).toBe('');
    expect(empty.feed('aab')).toBe(true);
    expect(empty.isComplete).toBe(true);
  });
});
