import { quoteGitPath } from '../../../../shared/gitPath';
import type { DiffFile } from '../../stores/diffStore';
import { useUiStore } from '../../stores/uiStore';

/** The files of the range shown, each with its +/− counts; choosing one names it in the address. */
export function ChangedFileList({ files, selected }: { files: DiffFile[]; selected: DiffFile | undefined }) {
  const navigate = useUiStore((state) => state.navigate);
  return (
    <ul className="file-list" aria-label="Changed files" data-testid="file-list">
      {files.map((entry) => (
        <li key={entry.path}>
          <button
            type="button"
            className={`file-entry${entry === selected ? ' selected' : ''}`}
            aria-current={entry === selected ? 'true' : undefined}
            onClick={() => navigate({ file: quoteGitPath(entry.path) }, { replace: true })}
            title={quoteGitPath(entry.path)}
          >
            <span className="file-path mono">
              {entry.before === null ? (
                <span className="chip chip-ok">new</span>
              ) : entry.after === null ? (
                <span className="chip chip-fail">deleted</span>
              ) : null}{' '}
              {quoteGitPath(entry.path)}
            </span>
            <span className="line-counts mono">
              <span className="added" aria-label={`${entry.added} lines added`}>
                +{entry.added}
              </span>{' '}
              <span className="removed" aria-label={`${entry.removed} lines removed`}>
                −{entry.removed}
              </span>
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
