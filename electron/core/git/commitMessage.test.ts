import { describe, expect, it } from 'vitest';
import { formatCommitMessage, parseCommitMessage } from './commitMessage';

// Issue 29: a run's commit subject was the goal's whole first paragraph (193 characters).
const GOAL = [
  'Add a --verbose flag to the command line tool that prints each parsed option and the resolved configuration before running, so that users can see why a run behaves as it does',
  '',
  'Document the flag in README.md.',
].join('\n');

describe('formatCommitMessage', () => {
  it('keeps the subject within 72 characters, cut at a word, with the whole goal in the body', () => {
    const message = formatCommitMessage({
      runId: 'r1',
      taskId: 'T1',
      title: GOAL,
      body: `Goal:\n${GOAL}`,
      role: 'coder',
      attempt: 1,
    });
    const { subject, trailers } = parseCommitMessage(message);
    expect(subject.length).toBeLessThanOrEqual(72);
    expect(subject).toBe('lathe(T1): Add a --verbose flag to the command line tool that prints…');
    expect(message).toContain(`\n\nGoal:\n${GOAL}\n\n`);
    // The goal is in the body once: the cut title is not repeated beside it.
    expect(message.split('Add a --verbose flag')).toHaveLength(3);
    expect(trailers).toEqual({ 'Lathe-Run': 'r1', 'Lathe-Task': 'T1', 'Lathe-Role': 'coder', 'Lathe-Attempt': '1' });
  });

  it('keeps a cut step title whole in the body, and a short one as it is', () => {
    const title = 'Refactor the option parser into a module of its own and cover every flag with a test';
    const long = formatCommitMessage({ runId: 'r1', taskId: 'T2', title, role: 'coder' });
    expect(parseCommitMessage(long).subject).toBe(
      'lathe(T2): Refactor the option parser into a module of its own and…',
    );
    expect(long.split('\n').slice(1, 4)).toEqual(['', title, '']);
    const short = formatCommitMessage({ runId: 'r1', taskId: 'T3', title: 'Fix median()', role: 'coder' });
    expect(short).toBe('lathe(T3): Fix median()\n\nLathe-Run: r1\nLathe-Task: T3\nLathe-Role: coder\n');
  });
});
