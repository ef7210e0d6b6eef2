import { useEffect, useRef } from 'react';
import { languageOf } from '../../lib/languages';
import { markMoment, markPainted } from '../../lib/paintMarks';
import { monaco } from '../../monaco/setup';
import { resolvedTheme, useUiStore } from '../../stores/uiStore';

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

/** One file before and after, in Monaco's diff editor (read-only). */
export function DiffEditor({ path, before, after, sideBySide, loaded = true }: DiffEditorProps) {
  const theme = useUiStore((state) => resolvedTheme(state.theme, state.systemDark));
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<monaco.editor.IStandaloneDiffEditor | null>(null);
  const painted = useRef(false);
  const retired = useRef<monaco.editor.ITextModel[]>([]);
  const initial = useRef({ sideBySide, theme });

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const editor = monaco.editor.createDiffEditor(element, { ...EDITOR_OPTIONS, renderSideBySide: initial.current.sideBySide, theme: themeName(initial.current.theme) });
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
  // models it shows waits out a 200 ms debounce; the placeholder's texts are replaced, never edited.
  useEffect(() => {
    const editor = editorRef.current;
    if (!editor) return;
    const language = languageOf(path);
    const previous = editor.getModel();
    editor.setModel({ original: reviewModel(before, language), modified: reviewModel(after, language) });
    // A diff of the previous pair may still be on its way from the worker, and disposing the pair now makes
    // it fail: retired pairs go with the editor, and only the oldest go sooner if texts keep changing.
    if (previous) retired.current.push(previous.original, previous.modified);
    if (retired.current.length > MAX_RETIRED_MODELS) retired.current.splice(0, retired.current.length - MAX_RETIRED_MODELS).forEach((model) => model.dispose());
    if (!loaded || painted.current) return;
    const listener = editor.onDidUpdateDiff(() => {
      listener.dispose();
      painted.current = true;
      markMoment('diff-computed');
      host.current?.setAttribute('data-diff-ready', 'true');
      markPainted('diff');
    });
    return () => listener.dispose();
  }, [path, before, after, loaded]);

  useEffect(() => {
    editorRef.current?.updateOptions({ renderSideBySide: sideBySide });
  }, [sideBySide]);

  useEffect(() => {
    monaco.editor.setTheme(themeName(theme));
  }, [theme]);

  return <div ref={host} className="diff-editor" data-testid="diff-editor" data-path={path} aria-busy={!loaded} />;
}
