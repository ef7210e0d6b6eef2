import { useEffect, useRef } from 'react';
import { languageOf } from '../../lib/languages';
import { markMoment } from '../../lib/paintMarks';
import { monaco } from '../../monaco/setup';
import { resolvedTheme, useUiStore } from '../../stores/uiStore';

export interface DiffEditorProps {
  path: string;
  before: string | null;
  after: string | null;
  sideBySide: boolean;
  /** Where to open (the plain view's top row), asked when the diff is first shown. */
  startAt?: () => { before: number | null; after: number | null } | null;
  /** Monaco shows its diff: the first time, after the editor computed it. */
  onShown?: () => void;
  /** Given at a pending gate: the modified side is editable, and each change of its text is reported. */
  onEdit?: (text: string) => void;
}

const EDITOR_OPTIONS: monaco.editor.IStandaloneDiffEditorConstructionOptions = {
  readOnly: true,
  originalEditable: false,
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
};

/** Two earlier pairs of texts: a worker request older than that has long been answered. */
const MAX_RETIRED_MODELS = 4;

const themeName = (theme: 'light' | 'dark') => (theme === 'dark' ? 'vs-dark' : 'vs');

/**
 * A read-only text for the diff. Bracket pair colours are a model option, not an editor one, and they
 * parse the whole file into a bracket tree before the first frame (~80 ms for two 5,000-line files).
 */
function reviewModel(text: string | null, language: string | undefined): monaco.editor.ITextModel {
  const model = monaco.editor.createModel(text ?? '', language);
  model.updateOptions({ bracketColorizationOptions: { enabled: false, independentColorPoolPerBracketType: false } });
  return model;
}

/** One file before and after, in Monaco's diff editor (read-only, but for the modified side at a pending gate). */
export function DiffEditor({ path, before, after, sideBySide, startAt, onShown, onEdit }: DiffEditorProps) {
  const theme = useUiStore((state) => resolvedTheme(state.theme, state.systemDark));
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<monaco.editor.IStandaloneDiffEditor | null>(null);
  const shown = useRef(false);
  const retired = useRef<monaco.editor.ITextModel[]>([]);
  const initial = useRef({ sideBySide, theme });
  // Read when the diff arrives, not when the effect was set up: the callbacks may change meanwhile.
  const callbacks = useRef({ startAt, onShown, onEdit });
  callbacks.current = { startAt, onShown, onEdit };
  const editable = onEdit !== undefined;

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const editor = monaco.editor.createDiffEditor(element, {
      ...EDITOR_OPTIONS,
      renderSideBySide: initial.current.sideBySide,
      theme: themeName(initial.current.theme),
    });
    editorRef.current = editor;
    markMoment('diff-editor-created');
    const retiredModels = retired.current;
    return () => {
      const models = editor.getModel();
      editor.dispose();
      models?.original.dispose();
      models?.modified.dispose();
      retiredModels.splice(0).forEach((model) => model.dispose());
      editorRef.current = null;
    };
  }, []);

  // A fresh pair of models for every pair of texts: Monaco diffs a new pair at once, while an edit to the
  // models it shows waits out a 200 ms debounce.
  useEffect(() => {
    const editor = editorRef.current;
    if (!editor) return;
    const language = languageOf(path);
    const previous = editor.getModel();
    editor.setModel({ original: reviewModel(before, language), modified: reviewModel(after, language) });
    // A diff of the previous pair may still be on its way from the worker, and disposing the pair now makes
    // it fail: retired pairs go with the editor, and only the oldest go sooner if texts keep changing.
    if (previous) retired.current.push(previous.original, previous.modified);
    if (retired.current.length > MAX_RETIRED_MODELS)
      retired.current.splice(0, retired.current.length - MAX_RETIRED_MODELS).forEach((model) => model.dispose());
    if (shown.current) return;
    const listener = editor.onDidUpdateDiff(() => {
      listener.dispose();
      shown.current = true;
      markMoment('diff-computed');
      const start = callbacks.current.startAt?.();
      const side = start && start.after !== null ? editor.getModifiedEditor() : editor.getOriginalEditor();
      const line = start ? (start.after ?? start.before) : null;
      if (line) side.setScrollTop(side.getTopForLineNumber(line));
      callbacks.current.onShown?.();
    });
    return () => listener.dispose();
  }, [path, before, after]);

  useEffect(() => {
    editorRef.current?.updateOptions({ renderSideBySide: sideBySide });
  }, [sideBySide]);

  // Only the modified side, the gate's proposal, is ever editable: the original is the branch as it was.
  useEffect(() => {
    const modified = editorRef.current?.getModifiedEditor();
    if (!modified) return;
    modified.updateOptions({ readOnly: !editable });
    if (!editable) return;
    const listener = modified.onDidChangeModelContent(() => callbacks.current.onEdit?.(modified.getValue()));
    return () => listener.dispose();
  }, [editable, path, before, after]);

  useEffect(() => {
    monaco.editor.setTheme(themeName(theme));
  }, [theme]);

  return <div ref={host} className="monaco-host" />;
}
