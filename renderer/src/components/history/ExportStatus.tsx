import { useEffect, useMemo } from 'react';
import type { ExportedPatch } from '../../stores/historyStore';

/**
 * What the last Export patch made, until dismissed: where the core saved it and, in a browser (which
 * cannot open a file on the core's disk), the patch to download. The 5-second notice alone was missed.
 */
export function ExportStatus({
  exported,
  offerDownload,
  onDismiss,
}: {
  exported: ExportedPatch;
  offerDownload: boolean;
  onDismiss: () => void;
}) {
  const href = useMemo(
    () =>
      offerDownload && exported.patch !== null
        ? URL.createObjectURL(new Blob([exported.patch], { type: 'text/x-patch' }))
        : null,
    [exported, offerDownload],
  );
  useEffect(() => () => void (href && URL.revokeObjectURL(href)), [href]);
  return (
    <p className="export-status" role="status" data-testid="export-status">
      <span>
        Patch of run <code>{exported.runId}</code> ({exported.commits} commit{exported.commits === 1 ? '' : 's'}) saved
        to <code className="export-file">{exported.file}</code>
      </span>
      {href && (
        <a className="small-button" href={href} download={patchFileName(exported)} data-testid="export-download">
          Download
        </a>
      )}
      {offerDownload && exported.patch === null && (
        <span className="muted"> (too large to download here: take it from that folder)</span>
      )}
      <button type="button" className="link-button" onClick={onDismiss} aria-label="Dismiss the export status">
        ×
      </button>
    </p>
  );
}

/** The download's name: the file the core wrote, without its folders. */
export function patchFileName(exported: Pick<ExportedPatch, 'file' | 'runId'>): string {
  return exported.file.split(/[\\/]/).pop() || `${exported.runId}.patch`;
}
