import { describe, expect, it } from 'vitest';
import { commonPrefixTokens, EstimatedKvCache, MESSAGE_OVERHEAD_TOKENS } from './estimatedKvCache';
import { estimateTokens } from './results';
import type { ChatMessage } from './types';

const system: ChatMessage = { role: 'system', content: 'You are the Coder. '.repeat(40) };
const user = (tail: string): ChatMessage => ({
  role: 'user',
  content: `Repository map and files:\n${'def f(x): return x\n'.repeat(50)}Task: ${tail}`,
});
/** The prompt estimate providers without a tokenizer use (fitByEstimate). */
const estimate = (messages: ChatMessage[]) =>
  messages.reduce((sum, message) => sum + estimateTokens(message.content) + MESSAGE_OVERHEAD_TOKENS, 0);

describe('estimated KV cache', () => {
  it("reuses nothing on a role's first call, and the shared system prompt and user prefix on its next", () => {
    const kv = new EstimatedKvCache();
    const first = [system, user('fix the first failure')];
    expect(kv.evaluate('coder', first, estimate(first))).toBe(0);
    const second = [system, user('fix the second failure, which is longer')];
    const cached = kv.evaluate('coder', second, estimate(second));
    const sharedChars = user('fix the ').content.length;
    expect(cached).toBe(estimateTokens(system.content) + MESSAGE_OVERHEAD_TOKENS + Math.floor(sharedChars / 4) + 1);
    expect(cached).toBeLessThan(estimate(second));
  });

  it('keeps one session per role: another role in between does not spoil the reuse', () => {
    const kv = new EstimatedKvCache();
    const coder = [system, user('a')];
    kv.evaluate('coder', coder, estimate(coder));
    const tester = [{ role: 'system' as const, content: 'You are the Tester.' }, user('b')];
    expect(kv.evaluate('tester', tester, estimate(tester))).toBe(0);
    expect(kv.evaluate('coder', coder, estimate(coder))).toBe(estimate(coder) - 1);
  });

  it('a change early in the prompt costs everything after it', () => {
    const kv = new EstimatedKvCache();
    const before = [system, user('a')];
    kv.evaluate('coder', before, estimate(before));
    const changedSystem = [{ role: 'system' as const, content: `Note. ${system.content}` }, user('a')];
    expect(kv.evaluate('coder', changedSystem, estimate(changedSystem))).toBe(1);
  });

  it("counts the role's own answer, held after its prompt, when the next prompt quotes it (a Scout's loop)", () => {
    const kv = new EstimatedKvCache();
    const first = [system, user('look')];
    kv.evaluate('scout', first, estimate(first));
    kv.answered('scout', '{"action":"read_file","path":"a.py"}');
    const next: ChatMessage[] = [
      ...first,
      { role: 'assistant', content: '{"action":"read_file","path":"a.py"}' },
      { role: 'user', content: 'Tool result: …' },
    ];
    expect(kv.evaluate('scout', next, estimate(next))).toBe(estimate(next.slice(0, 3)));
  });

  it('finds the common prefix message by message', () => {
    expect(commonPrefixTokens([], [system])).toBe(0);
    expect(commonPrefixTokens([system], [{ role: 'user', content: system.content }])).toBe(0);
    expect(commonPrefixTokens([system, user('x')], [system])).toBe(estimate([system]));
  });
});
