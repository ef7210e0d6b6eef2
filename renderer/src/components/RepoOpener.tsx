import { useState, type FormEvent } from 'react';
import { client, errorMessage, unwrap } from '../api/client';
import { useAppStore } from '../stores/appStore';
import { useRepoStore } from '../stores/repoStore';

export function RepoOpener() {
  const mode = useAppStore((state) => state.info?.mode);
  const open = useRepoStore((state) => state.open);
  const loading = useRepoStore((state) => state.loading);
  const error = useRepoStore((state) => state.error);
  const [path, setPath] = useState('');
  const [dialogError, setDialogError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (path.trim()) void open(path.trim());
  };

  const pickFolder = async () => {
    try {
      const picked = unwrap(await client().request('dialog/openFolder', {}));
      if (picked.path) await open(picked.path);
    } catch (failure) {
      setDialogError(errorMessage(failure));
    }
  };

  return (
    <section className="panel" aria-labelledby="open-repo-heading">
      <h2 id="open-repo-heading">Open a repository</h2>
      <form className="repo-form" onSubmit={submit}>
        {mode === 'electron' && (
          <button type="button" onClick={() => void pickFolder()} disabled={loading}>
            Open folder…
          </button>
        )}
        <label htmlFor="repo-path">Repository path</label>
        <input
          id="repo-path"
          name="repo-path"
          type="text"
          placeholder="/path/to/a/git/repo"
          value={path}
          onChange={(event) => setPath(event.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
        <button type="submit" disabled={loading || !path.trim()}>
          {loading ? 'Opening…' : 'Open'}
        </button>
      </form>
      {(error ?? dialogError) && (
        <p className="error-text" role="alert">
          {error ?? dialogError}
        </p>
      )}
    </section>
  );
}
