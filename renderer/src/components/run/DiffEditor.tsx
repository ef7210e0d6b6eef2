import { DiffEditor as MonacoDiffEditor, type DiffOnMount } from '@monaco-editor/react';
import { useEffect, useMemo, useRef } from 'react';
import { languageOf } from '../../lib/languages';
import { markMoment, markPainted } from '../../lib/paintMarks';
import { monaco } from '../../monaco/setup';
import { resolvedTheme, useUiStore } from '../../stores/uiStore';

let mounts = 0;

interface DiffEditorProps {
  path: string;
  before: string | null;
  after: string | null;
  sideBySide: boolean;
  /**
   * False while the file's texts are still being read: the editor is built meanwhile (a deep link
   * names the file before the diff arrives) and counts as painted only once it shows the real diff.
   */
  loaded?: boolean;
}

/** One file before and after, in Monaco's diff editor (read-only). */
export function DiffEditor({ path, before, after, sideBySide, loaded = true }: DiffEditorProps) {
  const theme = useUiStore((state) => resolvedTheme(state.theme, state.systemDark));
  const host = useRef<HTMLDivElement>(null);
  // Fresh model URIs per mount: the wrapper keeps models on unmount (disposing them before the
  // editor throws in Monaco 0.5x), and they are disposed here once the editor is gone.
  const uris = useMemo(() => {
    mounts += 1;
    return { original: `lathe-diff://${mounts}/before/${path}`, modified: `lathe-diff://${mounts}/after/${path}` };
  }, [path]);
  useEffect(
    () => () => {
      setTimeout(() => {
        for (const uri of [uris.original, uris.modified]) monaco.editor.getModel(monaco.Uri.parse(uri))?.dispose();
      }, 0);
    },
    [uris],
  );

  const loadedRef = useRef(loaded);
  const paintedRef = useRef(false);
  const painted = () => {
    if (paintedRef.current) return;
    paintedRef.current = true;
    markMoment('diff-computed');
    host.current?.setAttribute('data-diff-ready', 'true');
    markPainted('diff');
  };
  const paintedOnce = useRef(painted);
  useEffect(() => {
    paintedOnce.current = painted;
  });
  // Texts that arrive equal to the placeholder (two empty files) give Monaco no new diff to report.
  useEffect(() => {
    const wasLoaded = loadedRef.current;
    loadedRef.current = loaded;
    if (loaded && !wasLoaded && !before && !after) paintedOnce.current();
  }, [loaded, before, after]);

  const onMount: DiffOnMount = (editor) => {
    markMoment('diff-editor-created');
    if (loadedRef.current && editor.getLineChanges() !== null) paintedOnce.current();
    const listener = editor.onDidUpdateDiff(() => {
      if (!loadedRef.current) return;
      paintedOnce.current();
      listener.dispose();
    });
  };

  return (
    <div ref={host} className="diff-editor" data-testid="diff-editor" data-path={path} aria-busy={!loaded}>
      <MonacoDiffEditor
        original={before ?? ''}
        modified={after ?? ''}
        language={languageOf(path)}
        originalModelPath={uris.original}
        modifiedModelPath={uris.modified}
        keepCurrentOriginalModel
        keepCurrentModifiedModel
        theme={theme === 'dark' ? 'vs-dark' : 'vs'}
        onMount={onMount}
        loading={<p className="muted pad">Loading the diff editor…</p>}
        options={{
          readOnly: true,
          originalEditable: false,
          renderSideBySide: sideBySide,
          useInlineViewWhenSpaceIsLimited: false,
          automaticLayout: true,
          minimap: { enabled: false },
          scrollBeyondLastLine: false,
          renderOverviewRuler: true,
          ignoreTrimWhitespace: false,
          fontSize: 13,
          hideUnchangedRegions: { enabled: false },
          // The legacy line diff is several times faster on long files; the advanced one adds in-line moves a review does not need.
          diffAlgorithm: 'legacy',
        }}
      />
    </div>
  );
}
