import { createTwoFilesPatch } from 'diff';
import type { z } from 'zod';
import { requestInput } from '../../electron/core/llm/oracle/requestView';
import type { GenerateRequest } from '../../electron/core/llm/types';
import { README, STATS } from '../transcripts';

/**
 * A model that always knows the right answer for the js-stats example, whatever the workflow, role,
 * purpose or edit format: the baseline the fault injector corrupts.
 */
export function oracleAnswer(request: GenerateRequest<unknown>): unknown {
  const input = parseInput(request);
  const fits = (value: unknown) => request.schema.safeParse(value).success;
  const first = (candidates: unknown[]) => candidates.find(fits) ?? candidates[0];
  switch (request.role) {
    case 'planner':
      return first([TASKS_PLAN, STEPS_PLAN]);
    case 'coder':
    case 'editor': {
      if (fits(BRIEF)) return BRIEF;
      return first(proposals(request, input));
    }
    case 'tester':
      return first([
        { task_id: String(input.task_id ?? taskOf(input)?.id ?? 'T1'), passed: true, report: 'all tests pass' },
        { task_id: String(taskOf(input)?.id ?? 'T1'), summary: 'the tests pass', findings: [], fix_plan: [] },
      ]);
    case 'supervisor':
      return { approved: true, score: 90, issues: [], feedback: 'meets the criteria' };
    case 'scout':
      return {
        action: 'answer',
        report: {
          summary: 'median() in src/stats.js returns the mean',
          repo_map: ['src/stats.js'],
          target_files: ['src/stats.js'],
          apis: ['median(values)'],
          constraints: [],
          prior_art: [],
          verification_tips: ['node --test'],
          hypotheses: ['median never sorts'],
        },
      };
    default:
      return {};
  }
}

export const TASKS_PLAN = {
  plan_id: 'plan_0001',
  tasks: [
    {
      id: 'T1',
      title: 'Fix median()',
      rationale: 'it returns the mean',
      acceptance: 'the median test passes',
      artifacts: ['src/stats.js'],
    },
    {
      id: 'T2',
      title: 'Document the functions',
      rationale: 'the goal asks for it',
      acceptance: 'README.md documents both',
      artifacts: ['README.md'],
    },
  ],
};

export const STEPS_PLAN = {
  plan_id: 'plan_0001',
  analysis: 'fix median, then document',
  steps: [
    {
      id: 'T1',
      title: 'Fix median()',
      description: 'sort a copy, take the middle',
      acceptance: 'the median test passes',
      complexity: 'simple',
      depends_on: [],
      artifacts: ['src/stats.js'],
    },
    {
      id: 'T2',
      title: 'Document the functions',
      description: 'add an API section',
      acceptance: 'README.md documents both',
      complexity: 'simple',
      depends_on: ['T1'],
      artifacts: ['README.md'],
    },
  ],
};

const BRIEF = {
  behavior_change: 'median() returns the middle value',
  success_criteria: ['the median test passes'],
  non_goals: ['mean()'],
  questions: [{ scout: 'A', question: 'Where is median implemented?' }],
};

type Input = Record<string, unknown> & { task?: { id?: string; title?: string; artifacts?: string[] } };

function parseInput(request: GenerateRequest<unknown>): Input {
  return (requestInput(request.messages) ?? {}) as Input;
}

function taskOf(input: Input) {
  return input.task;
}

/** The current content of a file, as the engine put it into the prompt's context. */
export function currentContent(request: GenerateRequest<unknown>, file: string): string | null {
  const item = request.context?.find((entry) => entry.id === `file:${file}`);
  const match = item ? /^### [^\n]+\n```\n([\s\S]*)\n```\n$/.exec(item.text) : null;
  return match?.[1] ?? null;
}

/** What each file should become for this task: the fix, the docs, or both for one-task workflows. */
function targets(input: Input): Record<string, string> {
  const task = taskOf(input);
  const artifacts = task?.artifacts ?? [];
  if (artifacts.length === 1 && artifacts[0] === 'README.md') return { 'README.md': README };
  if (artifacts.length === 1 && artifacts[0] === 'src/stats.js') return { 'src/stats.js': STATS.fixed };
  return { 'src/stats.js': STATS.fixed, 'README.md': README };
}

function proposals(request: GenerateRequest<unknown>, input: Input): unknown[] {
  const wanted = targets(input);
  const files = Object.keys(wanted).sort();
  const current = (file: string) => currentContent(request, file) ?? '';
  return [
    { edits: files.map((file) => ({ path: file, content: wanted[file] })) },
    {
      diff: files
        .map((file) => createTwoFilesPatch(`a/${file}`, `b/${file}`, current(file), wanted[file] ?? ''))
        .join(''),
    },
    { edits: files.map((file) => ({ path: file, search: current(file), replace: wanted[file] })) },
  ];
}

export type Schema = z.ZodType;
