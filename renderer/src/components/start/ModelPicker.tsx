import { useId, useState } from 'react';
import type { ModelEntryView } from '../../../../shared/schemas/models';
import { formatBytes } from '../../../../shared/format';
import { specProblem } from './runRequest';

const CUSTOM = '__custom__';

interface ModelPickerProps {
  label: string;
  models: ModelEntryView[];
  value: string;
  onChange(spec: string): void;
  /** What an empty value means, e.g. "Same as every role". */
  emptyLabel: string;
  problem?: string;
  id?: string;
}

export function describeModel(model: ModelEntryView): string {
  const parts = [
    model.name,
    formatBytes(model.sizeBytes),
    model.quantization ?? '?',
    model.contextLength ? `${model.contextLength.toLocaleString('en-US')} ctx` : null,
  ];
  return parts.filter(Boolean).join(' · ');
}

/** A model from the library (rejected files shown with their reason), or a custom spec. */
export function ModelPicker({ label, models, value, onChange, emptyLabel, problem, id }: ModelPickerProps) {
  const fallbackId = useId();
  const selectId = id ?? fallbackId;
  const fromLibrary = models.find((model) => model.status === 'ok' && `llama:${model.path}` === value);
  // A spec that is not (yet) in the library shows as custom; the library is read after the form appears.
  const [customChosen, setCustomChosen] = useState(false);
  const custom = customChosen || (value !== '' && !fromLibrary);
  const selected = custom ? CUSTOM : fromLibrary ? value : '';
  const tooBig = fromLibrary && !fromLibrary.fitsInMemory;
  const shapeProblem = custom ? specProblem(value) : null;
  const shown = problem ?? shapeProblem;
  return (
    <div className="model-picker">
      <label htmlFor={selectId}>{label}</label>
      <select
        id={selectId}
        value={selected}
        onChange={(event) => {
          const next = event.target.value;
          setCustomChosen(next === CUSTOM);
          if (next !== CUSTOM) onChange(next);
        }}
        aria-invalid={shown ? true : undefined}
        aria-describedby={shown ? `${selectId}-problem` : undefined}
      >
        <option value="">{emptyLabel}</option>
        {models.map((model) =>
          model.status === 'ok' ? (
            <option key={model.path} value={`llama:${model.path}`}>
              {describeModel(model)}
              {model.fitsInMemory ? '' : ' — ⚠ too big for this machine'}
            </option>
          ) : (
            <option key={model.path} value={`rejected:${model.path}`} disabled>
              {model.fileName} — cannot be used: {model.reason}
            </option>
          ),
        )}
        <option value={CUSTOM}>Custom spec…</option>
      </select>
      {custom && (
        <input
          type="text"
          className="mono"
          aria-label={`${label}: custom model spec`}
          placeholder="llama:PATH.gguf · ollama:NAME · openai:URL#MODEL · replay:FILE.json"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          spellCheck={false}
          autoComplete="off"
        />
      )}
      {tooBig && (
        <p className="warning-text" role="note">
          ⚠ {fromLibrary.name} ({formatBytes(fromLibrary.sizeBytes)}) may not fit in this machine's memory; loading may
          fail or swap.
        </p>
      )}
      {shown && (
        <p className="error-text" id={`${selectId}-problem`}>
          {shown}
        </p>
      )}
    </div>
  );
}
