import { z } from 'zod';

/**
 * Every string and array in a role schema is bounded: an unbounded one lets a small model run until
 * max tokens. Seed 000: any textual field ≤ 4000 chars.
 */
export const LIMITS = {
  text: 4000,
  shortText: 500,
  title: 200,
  path: 300,
  id: 16,
  fileContent: 200_000,
  artifacts: 20,
  tasks: 20,
  issues: 20,
} as const;

export const boundedText = (max: number = LIMITS.text) => z.string().max(max);
export const repoPath = () => z.string().min(1).max(LIMITS.path);
