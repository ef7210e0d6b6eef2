import { useCallback, useEffect, useRef, useState } from 'react';
import { markPainted } from '../../lib/paintMarks';
import type { DiffFile } from '../../stores/diffStore';
import { useRunViewStore } from '../../stores/runViewStore';
import type { DiffEditor as MonacoDiffEditor } from './DiffEditor';
import { DiffPreview, type DiffPreviewHandle } from './DiffPreview';

type MonacoDiff = typeof MonacoDiffEditor;

let loaded: MonacoDiff | null = null;
let loading: Promise<MonacoDiff> | null = null;

/** Monaco's chunk, once per page; a failed load is tried again by the next view. */
function loadMonacoDiff(): Promise<MonacoDiff> {
  loading ??= import('./DiffEditor').then(
    (module) => (loaded = module.DiffEditor),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

interface DiffViewProps {
  path: string;
  /** null while the range is being read. */
  file: DiffFile | null;
  sideBySide: boolean;
  /**
   * At a pending code or step gate: the text to show on the modified side (the person's earlier edit, read
   * once, so typing never replaces the editor's model), and where each edit goes.
   */
  editing?: { text: string | null; onEdit: (text: string) => void };
}

/**
 * One file's diff: plain rows first, from the core's line diff, then Monaco over them once it has computed
 * its own. Monaco is asked for only after the plain rows and the run's log are on screen: its chunk and
 * editor take the main thread for ~0.3 s, which would otherwise hold up the run view's first paint.
 */
export function DiffView({ path, file, sideBySide, editing }: DiffViewProps) {
  const logLoading = useRunViewStore((state) => state.loading);
  const [previewPainted, setPreviewPainted] = useState(false);
  const [Editor, setEditor] = useState<MonacoDiff | null>(null);
  const [editorShown, setEditorShown] = useState(false);
  const preview = useRef<DiffPreviewHandle>(null);
  const [editedAtMount] = useState(editing?.text ?? null);

  const onPreviewPainted = useCallback(() => {
    setPreviewPainted(true);
    markPainted('diff');
  }, []);
  const onEditorShown = useCallback(() => setEditorShown(true), []);
  const startAt = useCallback(() => preview.current?.topRow() ?? null, []);

  useEffect(() => {
    if (!previewPainted || logLoading || Editor) return;
    if (loaded) {
      setEditor(() => loaded);
      return;
    }
    let live = true;
    loadMonacoDiff().then(
      (editor) => live && setEditor(() => editor),
      // The plain rows stay: the diff is still shown, without syntax colours, search or folding.
      (error: unknown) => console.error('the diff editor failed to load', error),
    );
    return () => {
      live = false;
    };
  }, [previewPainted, logLoading, Editor]);

  return (
    <div
      className="diff-editor"
      data-testid="diff-editor"
      data-path={path}
      data-diff-ready={previewPainted ? 'true' : undefined}
      data-editor={editorShown ? 'monaco' : 'plain'}
      aria-busy={!file}
    >
      {file && Editor && (
        <Editor
          path={path}
          before={file.before}
          after={editedAtMount ?? file.after}
          sideBySide={sideBySide}
          startAt={startAt}
          onShown={onEditorShown}
          {...(editing ? { onEdit: editing.onEdit } : {})}
        />
      )}
      {file && !editorShown && (
        <DiffPreview
          handle={preview}
          before={file.before}
          after={file.after}
          changes={file.changes}
          sideBySide={sideBySide}
          onPainted={onPreviewPainted}
        />
      )}
    </div>
  );
}
