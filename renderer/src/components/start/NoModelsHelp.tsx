import { useState } from 'react';
import { useModelsStore } from '../../stores/modelsStore';
import { useUiStore } from '../../stores/uiStore';

/** Shown when the library has no usable GGUF file: where models go and how to add one. */
export function NoModelsHelp({ folders, rejected }: { folders: string[]; rejected: number }) {
  const [open, setOpen] = useState(false);
  const navigate = useUiStore((state) => state.navigate);
  const loading = useModelsStore((state) => state.loading);
  const first = folders[0];
  return (
    <div className="callout" role="note" data-testid="no-models">
      <p>
        <strong>No usable GGUF model found</strong>
        {rejected > 0 ? ` (${rejected} file${rejected === 1 ? '' : 's'} could not be used; see the list above)` : ''}.
        Lathe looked in{' '}
        {folders.length > 0
          ? folders.map((folder, index) => <code key={folder}>{index > 0 ? `, ${folder}` : folder}</code>)
          : 'no folder'}
        .
      </p>
      <div className="form-actions">
        <button type="button" className="link-button" aria-expanded={open} onClick={() => setOpen(!open)}>
          How to add a model
        </button>
        <button
          type="button"
          className="small-button"
          onClick={() => void useModelsStore.getState().load()}
          disabled={loading}
        >
          {loading ? 'Scanning…' : 'Scan again'}
        </button>
      </div>
      {open && (
        <div className="how-to" data-testid="how-to-add-model">
          <ol>
            <li>
              Copy a <code>.gguf</code> file (for example a Q4_K_M quantization of a small coding model) into{' '}
              {first ? <code>{first}</code> : 'the models folder'}. Sub-folders (publisher/model/file) are scanned four
              levels deep.
            </li>
            <li>
              Or add the folder your models already live in:{' '}
              <button type="button" className="link-button" onClick={() => navigate({ view: 'settings' })}>
                Settings → Models folders
              </button>
              . <code>LATHE_MODELS_DIR</code> (folders separated by <code>:</code>) is scanned too.
            </li>
            <li>Press “Scan again” (the list is also read each time this screen opens).</li>
          </ol>
          <p className="muted small">
            Nothing is downloaded: Lathe reads the file header (architecture, parameters, quantization, context length,
            chat template) and lists files it cannot use with the reason (not a GGUF, truncated download, unsupported
            architecture, embedding-only). <code>npx lathe models</code> prints the same list. A model served locally
            works too, as a custom spec: <code>ollama:NAME</code> or <code>openai:http://127.0.0.1:8080/v1#MODEL</code>{' '}
            (loopback only).
          </p>
        </div>
      )}
    </div>
  );
}
