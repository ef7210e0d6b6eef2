import { WORKFLOWS } from '../../../../shared/engine/workflows';
import { useModelsStore } from '../../stores/modelsStore';
import { ModelPicker } from './ModelPicker';
import { NoModelsHelp } from './NoModelsHelp';
import { ROLE_LABELS, rolesFor, specProblem, type RunFormValues } from './runRequest';
import type { FormProblems } from './useRunForm';

interface ModelFieldsProps {
  values: RunFormValues;
  problems: FormProblems;
  update: (change: Partial<RunFormValues>) => void;
}

/** The model for every role, and per role for the roles the chosen workflow and gates use. */
export function ModelFields({ values, problems, update }: ModelFieldsProps) {
  const models = useModelsStore((state) => state.models);
  const folders = useModelsStore((state) => state.folders);
  const modelsLoaded = useModelsStore((state) => state.loaded);
  const modelsError = useModelsStore((state) => state.error);
  const roles = rolesFor(WORKFLOWS[values.workflow], values.gates);
  const usable = models.filter((model) => model.status === 'ok');
  // A model spec of the right shape typed in (a replay, a local server, a GGUF elsewhere) needs no library.
  const hasSpec = [values.model, ...roles.map((role) => values.roleModels[role] ?? '')].some(
    (spec) => spec.trim() !== '' && specProblem(spec) === null,
  );
  return (
    <fieldset className="models">
      <legend>Models</legend>
      {modelsError && <p className="error-text">Could not read the model library: {modelsError}</p>}
      <ModelPicker
        id="model-all"
        label="Every role"
        models={models}
        value={values.model}
        onChange={(model) => update({ model })}
        emptyLabel={usable.length > 0 ? 'Choose a model…' : 'No model in the library'}
        problem={problems.model}
      />
      {modelsLoaded && usable.length === 0 && !hasSpec && <NoModelsHelp folders={folders} rejected={models.length} />}
      <details className="role-models" open={roles.some((role) => problems[`model-${role}`]) || undefined}>
        <summary>Per-role models ({roles.map((role) => ROLE_LABELS[role]).join(', ')})</summary>
        {roles.map((role) => (
          <ModelPicker
            key={role}
            id={`model-${role}`}
            label={ROLE_LABELS[role]}
            models={models}
            value={values.roleModels[role] ?? ''}
            onChange={(spec) => update({ roleModels: { ...values.roleModels, [role]: spec } })}
            emptyLabel="Same as every role"
            problem={problems[`model-${role}`]}
          />
        ))}
      </details>
    </fieldset>
  );
}
