import { describe, expect, it } from 'vitest';
import type { ContextItem } from '../llm/types';
import { PromptSessions } from './promptSession';

const item = (id: string, text = id, priority = 0): ContextItem => ({ id, text, priority });
const ids = (items: ContextItem[]) => items.map((entry) => entry.id);

describe('a role prompt session', () => {
  it("keeps the previous call's items first while they are shown again unchanged, then the rest by rank", () => {
    const sessions = new PromptSessions();
    expect(ids(sessions.order('coder', [item('a'), item('b'), item('c')]))).toEqual(['a', 'b', 'c']);
    // The ranking moved c up and found d: a, b, c are still the reusable prefix.
    expect(ids(sessions.order('coder', [item('c'), item('d'), item('a'), item('b')]))).toEqual(['a', 'b', 'c', 'd']);
    // b was edited: the prefix ends before it; the changed b and the rest follow by rank.
    expect(ids(sessions.order('coder', [item('b', 'b edited'), item('d'), item('a'), item('c')]))).toEqual([
      'a',
      'b',
      'd',
      'c',
    ]);
  });

  it('keeps one session per role, and leaves priorities alone', () => {
    const sessions = new PromptSessions();
    sessions.order('coder', [item('a'), item('b')]);
    expect(ids(sessions.order('supervisor', [item('b'), item('a')]))).toEqual(['b', 'a']);
    const ordered = sessions.order('coder', [item('b', 'b', 9), item('a', 'a', 1)]);
    expect(ordered.map((entry) => [entry.id, entry.priority])).toEqual([
      ['a', 1],
      ['b', 9],
    ]);
  });
});
