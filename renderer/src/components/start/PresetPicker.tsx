import { PRESET_NAMES, PRESETS, type PresetName } from '../../../../shared/engine/presets';

export function PresetPicker({ value, onChange }: { value: PresetName; onChange(name: PresetName): void }) {
  return (
    <fieldset className="preset-picker">
      <legend>Workflow</legend>
      {PRESET_NAMES.map((name) => {
        const preset = PRESETS[name];
        return (
          <label key={name} className={`preset-option${value === name ? ' preset-option-selected' : ''}`}>
            <input
              type="radio"
              name="workflow"
              value={name}
              checked={value === name}
              onChange={() => onChange(name)}
              aria-labelledby={`preset-${name}-name`}
              aria-describedby={`preset-${name}-description`}
            />
            <span className="preset-name">
              <span id={`preset-${name}-name`}>{name}</span> <span className="muted small">seed {preset.seed}</span>
            </span>
            <span className="preset-description" id={`preset-${name}-description`}>
              {preset.description}
            </span>
          </label>
        );
      })}
    </fieldset>
  );
}
