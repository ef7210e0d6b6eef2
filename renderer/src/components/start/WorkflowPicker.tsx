import { WORKFLOWS } from '../../../../shared/engine/workflows';
import { WORKFLOW_NAMES, type WorkflowName } from '../../../../shared/schemas/workflowName';

export function WorkflowPicker({ value, onChange }: { value: WorkflowName; onChange(name: WorkflowName): void }) {
  return (
    <fieldset className="workflow-picker">
      <legend>Workflow</legend>
      {WORKFLOW_NAMES.map((name) => {
        const workflow = WORKFLOWS[name];
        return (
          <label key={name} className={`workflow-option${value === name ? ' workflow-option-selected' : ''}`}>
            <input
              type="radio"
              name="workflow"
              value={name}
              checked={value === name}
              onChange={() => onChange(name)}
              aria-labelledby={`workflow-${name}-name`}
              aria-describedby={`workflow-${name}-description`}
            />
            <span className="workflow-name">
              <span id={`workflow-${name}-name`}>{name}</span> <span className="muted small">seed {workflow.seed}</span>
            </span>
            <span className="workflow-description" id={`workflow-${name}-description`}>
              {workflow.description}
            </span>
          </label>
        );
      })}
    </fieldset>
  );
}
