import { useEffect, useState } from 'react';
import type { WorkflowName } from '../../../../shared/schemas/workflowName';
import { LatheError } from '../../../../shared/errors';
import { preflightProblemsOf } from '../../../../shared/schemas/preflight';
import { client, errorMessage, unwrap } from '../../api/client';
import { useModelsStore } from '../../stores/modelsStore';
import { useSettingsStore } from '../../stores/settingsStore';
import { useUiStore } from '../../stores/uiStore';
import { rememberForm } from './formMemory';
import { buildStartRequest, defaultGates, fieldIdOf, formProblems, type RunFormValues } from './runRequest';

export type FormProblems = Partial<Record<string, string>>;

/** The run form's values (remembered per repository), its problems, and starting the run they describe. */
export function useRunForm(repoPath: string, initial: RunFormValues) {
  const settings = useSettingsStore((state) => state.settings);
  const [values, setValues] = useState<RunFormValues>(() => initial);
  const [problems, setProblems] = useState<FormProblems>({});
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);
  // History's Follow up opens this form with the run to continue in the route.
  const followUp = useUiStore((state) => state.route.followUp);

  useEffect(() => {
    void useModelsStore.getState().load();
  }, []);
  useEffect(() => rememberForm(repoPath, values), [repoPath, values]);

  const update = (change: Partial<RunFormValues>) => setValues((current) => ({ ...current, ...change }));
  const pickWorkflow = (workflow: WorkflowName) => update({ workflow, gates: defaultGates(workflow, settings) });

  const showProblems = (found: FormProblems) => {
    setProblems(found);
    const first = Object.keys(found)[0];
    if (first) document.getElementById(fieldIdOf(first))?.focus();
  };

  const start = async () => {
    const checked = buildStartRequest(repoPath, values, followUp);
    if (!checked.ok) return showProblems(checked.problems);
    setProblems({});
    setStarting(true);
    setStartError(null);
    try {
      const { runId } = unwrap(await client().request('run/start', checked.request));
      useUiStore.getState().navigate({ view: 'run', repo: repoPath, run: runId, tab: 'activity' });
    } catch (error) {
      // The core's start checks name the field each problem belongs to: show it there, nothing was created.
      const refused = error instanceof LatheError ? preflightProblemsOf(error) : null;
      if (refused) showProblems(formProblems(refused, values));
      else setStartError(errorMessage(error));
    } finally {
      setStarting(false);
    }
  };

  return { values, problems, starting, startError, followUp, update, pickWorkflow, start };
}
