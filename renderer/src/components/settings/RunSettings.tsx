import { WORKFLOW_NAMES } from '../../../../shared/schemas/workflowName';
import { GATE_KINDS, type GateMode } from '../../../../shared/schemas/gates';
import { GateModeOptions } from '../start/GateModes';
import { FieldError, useInvalidField, type SettingsSectionProps } from './SettingsFields';

/** A new run's defaults: workflow, time limit, gate modes, and the commands agents may run. */
export function RunSettings({ values, update }: SettingsSectionProps) {
  const invalid = useInvalidField();
  return (
    <fieldset>
      <legend>Runs</legend>
      <div className="field">
        <label htmlFor="default-workflow">Default workflow</label>
        <select
          id="default-workflow"
          value={values.defaultWorkflow}
          onChange={(event) => update({ defaultWorkflow: event.target.value })}
        >
          {WORKFLOW_NAMES.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="settings-time-limit">Default time limit (minutes)</label>
        <input
          id="settings-time-limit"
          type="number"
          min={1}
          max={1440}
          value={values.timeLimitMinutes}
          placeholder="no limit"
          onChange={(event) => update({ timeLimitMinutes: event.target.value })}
          {...invalid('timeLimitMinutes')}
        />
        <FieldError path="timeLimitMinutes" />
      </div>
      <GateDefaults values={values} update={update} />
      <div className="field">
        <label htmlFor="shell-allowlist">Shell allowlist (one command prefix per line)</label>
        <textarea
          id="shell-allowlist"
          rows={4}
          className="mono"
          value={values.shellAllowlist}
          onChange={(event) => update({ shellAllowlist: event.target.value })}
          {...invalid('shellAllowlist')}
        />
        <p className="hint">Commands agents may run through the shell tool; everything else is refused.</p>
        <FieldError path="shellAllowlist" />
      </div>
    </fieldset>
  );
}

function GateDefaults({ values, update }: SettingsSectionProps) {
  return (
    <div className="gate-defaults">
      <p className="field-label">Gate defaults</p>
      {GATE_KINDS.map((kind) => (
        <div className="field" key={kind}>
          <label htmlFor={`settings-gate-${kind}`}>{kind} gate</label>
          <select
            id={`settings-gate-${kind}`}
            value={values.gates[kind]}
            onChange={(event) => update({ gates: { ...values.gates, [kind]: event.target.value as GateMode | '' } })}
          >
            <option value="">the workflow's default</option>
            <GateModeOptions />
          </select>
        </div>
      ))}
    </div>
  );
}
