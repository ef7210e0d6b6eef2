import { DiffEditor as MonacoDiffEditor, type DiffOnMount } from '@monaco-editor/react';
import { useEffect, useMemo, useRef } from 'react';
import { languageOf } from '../../lib/lineCounts';
import { markPainted } from '../../lib/paintMarks';
import { monaco } from '../../monaco/setup';
import { resolvedTheme, useUiStore } from '../../stores/uiStore';

let mounts = 0;

interface DiffEditorProps {
  path: string;
  before: string | null;
  after: string | null;
  sideBySide: boolean;
}

/** One file before and after, in Monaco's diff editor (read-only). */
export function DiffEditor({ path, before, after, sideBySide }: DiffEditorProps) {
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

  const onMount: DiffOnMount = (editor) => {
    const painted = () => {
      host.current?.setAttribute('data-diff-ready', 'true');
      markPainted('diff');
    };
    const changes = editor.getLineChanges();
    if (changes !== null) painted();
    const listener = editor.onDidUpdateDiff(() => {
      painted();
      listener.dispose();
    });
  };

  return (
    <div ref={host} className="diff-editor" data-testid="diff-editor" data-path={path}>
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
        }}
      />
    </div>
  );
}
