import { describe, expect, it } from 'vitest';
import { fitContext, insertContext } from './contextFit';
import type { ChatMessage, ContextItem } from './types';

/** One token per word, plus 3 per message for the template: easy to reason about. */
const countText = (text: string) => text.split(/\s+/).filter(Boolean).length;
const countPrompt = (messages: ChatMessage[]) =>
  messages.reduce((sum, message) => sum + countText(message.content) + 3, 0);
const words = (id: string, n: number, priority: number): ContextItem => ({
  id,
  text: Array.from({ length: n }, () => id).join(' '),
  priority,
});

const messages: ChatMessage[] = [
  { role: 'system', content: 'you plan' },
  { role: 'user', content: 'goal here {{context}} end' },
];

describe('context fitting', () => {
  it('inserts the kept items at the marker, in their given order, not priority order', () => {
    const result = fitContext({
      messages,
      context: [words('a', 2, 1), words('b', 2, 5)],
      budgetTokens: 100,
      countPrompt,
      countText,
    });
    expect(result.ok && result.messages[1]?.content).toBe('goal here a a\n\nb b end');
    expect(result.ok && result.dropped).toEqual([]);
  });

  it('drops the lowest priority first and names what it dropped, lowest first', () => {
    const context = [words('low', 10, 1), words('high', 10, 9), words('mid', 10, 5), words('lowest', 10, 0)];
    const mandatory = countPrompt(insertContext(messages, []));
    const result = fitContext({ messages, context, budgetTokens: mandatory + 25, countPrompt, countText });
    if (!result.ok) throw new Error('expected a fit');
    expect(result.kept).toEqual(['high', 'mid']);
    expect(result.dropped).toEqual(['lowest', 'low']);
    expect(result.promptTokens).toBeLessThanOrEqual(mandatory + 25);
  });

  it('still fits a small low-priority item where a large higher one did not', () => {
    const mandatory = countPrompt(insertContext(messages, []));
    const result = fitContext({
      messages,
      context: [words('big', 50, 9), words('small', 3, 1)],
      budgetTokens: mandatory + 10,
      countPrompt,
      countText,
    });
    expect(result.ok && result.kept).toEqual(['small']);
    expect(result.ok && result.dropped).toEqual(['big']);
  });

  it('re-checks the real prompt and sheds more when item estimates were too low', () => {
    const underCount = () => 1;
    const mandatory = countPrompt(insertContext(messages, []));
    const result = fitContext({
      messages,
      context: [words('a', 10, 2), words('b', 10, 1)],
      budgetTokens: mandatory + 12,
      countPrompt,
      countText: underCount,
    });
    if (!result.ok) throw new Error('expected a fit');
    expect(result.kept).toEqual(['a']);
    expect(result.dropped).toEqual(['b']);
    expect(result.promptTokens).toBeLessThanOrEqual(mandatory + 12);
  });

  it('reports overflow when the mandatory part alone does not fit', () => {
    const result = fitContext({ messages, context: [], budgetTokens: 3, countPrompt, countText });
    expect(result).toEqual({ ok: false, mandatoryTokens: countPrompt(insertContext(messages, [])) });
  });

  it("appends to the last user message without a marker, and never edits the caller's messages", () => {
    const plain: ChatMessage[] = [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'second' },
    ];
    const out = insertContext(plain, [words('ctx', 1, 1)]);
    expect(out.map((message) => message.content)).toEqual(['first', 'ok', 'second\n\nctx']);
    expect(plain[2]?.content).toBe('second');
    expect(insertContext(messages, [])[1]?.content).toBe('goal here  end');
  });
});
