import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ExportStatus, patchFileName } from './ExportStatus';

const exported = {
  runId: '20261122T040000Z',
  file: '/repo/.lathe/runs/20261122T040000Z/20261122T040000Z.patch',
  commits: 2,
  patch: 'From abc Mon Sep 17 00:00:00 2001\n',
};
const render = (offerDownload: boolean, patch: string | null = exported.patch) =>
  renderToStaticMarkup(
    <ExportStatus exported={{ ...exported, patch }} offerDownload={offerDownload} onDismiss={() => undefined} />,
  ).replaceAll('<!-- -->', '');

describe('the export status line (issue 29: Export patch gave no sign in a browser)', () => {
  it('says where the patch was saved, and stays until dismissed', () => {
    const html = render(false);
    expect(html).toContain('role="status"');
    expect(html).toContain(`saved to <code class="export-file">${exported.file}</code>`);
    expect(html).toContain('(2 commits)');
    expect(html).not.toContain('export-download');
  });

  it('offers the patch as a download in a browser, named as the file; a patch too large to send says where to take it', () => {
    expect(render(true)).toMatch(
      /<a class="small-button" href="blob:[^"]+" download="20261122T040000Z\.patch" data-testid="export-download">Download<\/a>/,
    );
    expect(render(true, null)).toContain('too large to download here');
    expect(patchFileName({ runId: 'r', file: 'C:\\runs\\r\\r.patch' })).toBe('r.patch');
  });
});
