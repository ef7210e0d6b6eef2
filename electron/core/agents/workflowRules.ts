import type { RunConfig } from '../../../shared/engine/runConfig';

/**
 * The rules every role of a run is told in the same words (prompts/rules/), chosen from the run's
 * configuration so the prompts say what the guardrails enforce: seed 000 keeps tests read-only and
 * edits to the artifacts, seed 002 is test-driven, and so on.
 */
export function workflowRulePrompts(
  config: Pick<RunConfig, 'tests_read_only' | 'artifacts_only' | 'tests_policy'>,
): string[] {
  const tests = config.tests_read_only
    ? 'rules/tests-read-only'
    : config.tests_policy === 'protect'
      ? 'rules/tests-protected'
      : 'rules/tests-with-change';
  return [tests, config.artifacts_only ? 'rules/artifacts-only' : 'rules/artifacts-guide'];
}
