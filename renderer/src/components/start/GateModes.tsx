import { GATE_KINDS, type GateMode, type GateModes as GateModesValue } from '../../../../shared/schemas/gates';

export const GATE_MODE_LABELS: Record<GateMode, string> = {
  off: 'off',
  auto: 'auto (Supervisor)',
  human: 'human (you decide)',
  both: 'both (Supervisor scores, you decide)',
};

/** Every gate mode as an <option>, with its label. */
export function GateModeOptions() {
  return (
    <>
      {(Object.keys(GATE_MODE_LABELS) as GateMode[]).map((mode) => (
        <option key={mode} value={mode}>
          {GATE_MODE_LABELS[mode]}
        </option>
      ))}
    </>
  );
}

const GATE_HINTS = {
  plan: 'after the Planner',
  code: 'after green tests',
  step: 'before a step counts as done',
  goal: 'after the last step',
} as const;

export function GateModes({
  value,
  onChange,
  idPrefix = 'gate',
}: {
  value: GateModesValue;
  onChange(value: GateModesValue): void;
  idPrefix?: string;
}) {
  return (
    <fieldset className="gate-modes">
      <legend>Gates</legend>
      {GATE_KINDS.map((kind) => (
        <div key={kind} className="gate-mode">
          <label htmlFor={`${idPrefix}-${kind}`}>
            {kind} gate <span className="muted small">{GATE_HINTS[kind]}</span>
          </label>
          <select
            id={`${idPrefix}-${kind}`}
            value={value[kind]}
            onChange={(event) => onChange({ ...value, [kind]: event.target.value as GateMode })}
          >
            <GateModeOptions />
          </select>
        </div>
      ))}
    </fieldset>
  );
}
