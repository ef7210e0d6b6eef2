import { useState, type FormEvent } from 'react';
import { client, errorMessage, unwrap } from '../../api/client';
import { formatDateTime } from '../../lib/format';
import { useAppStore } from '../../stores/appStore';
import { useRepoStore } from '../../stores/repoStore';
import { useUiStore } from '../../stores/uiStore';

export function RepoOpener() {
  const mode = useAppStore((state) => state.info?.mode);
  const loading = useRepoStore((state) => state.loading);
  const error = useRepoStore((state) => state.error);
  const [path, setPath] = useState('');
  const [dialogError, setDialogError] = useState<string | null>(null);

  const open = async (target: string) => {
    const status = await useRepoStore.getState().open(target);
    if (status) useUiStore.getState().navigate({ repo: status.path, view: 'start', run: null });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (path.trim()) void open(path.trim());
  };
  const pickFolder = async () => {
    setDialogError(null);
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
        <label htmlFor="repo-path">Repository path</label>
        <div className="inline-fields">
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
          {mode === 'electron' && (
            <button type="button" onClick={() => void pickFolder()} disabled={loading}>
              Open folder…
            </button>
          )}
        </div>
        {mode === 'browser' && (
          <p className="hint">
            In browser mode, type or paste the folder's path (the browser cannot open a native folder dialog).
          </p>
        )}
      </form>
      {(error ?? dialogError) && (
        <p className="error-text" role="alert">
          {error ?? dialogError}
        </p>
      )}
      <RecentRepos open={(target) => void open(target)} />
    </section>
  );
}

/** The repositories opened before, each a button that opens it again; the one open now is marked. */
function RecentRepos({ open }: { open: (path: string) => void }) {
  const recent = useRepoStore((state) => state.recent);
  const current = useRepoStore((state) => state.status?.path);
  if (recent.length === 0) return null;
  return (
    <>
      <h3 className="subheading" id="recent-heading">
        Recent
      </h3>
      <ul className="recent-repos" aria-labelledby="recent-heading">
        {recent.map((repo) => (
          <li key={repo.path}>
            <button
              type="button"
              className="link-button recent-repo"
              onClick={() => open(repo.path)}
              aria-current={repo.path === current ? 'true' : undefined}
              title={repo.path}
            >
              <span className="recent-name">{repo.name}</span>
              <span className="muted mono recent-path">{repo.path}</span>
            </button>
            <span className="muted small">{formatDateTime(repo.openedAt)}</span>
          </li>
        ))}
      </ul>
    </>
  );
}
