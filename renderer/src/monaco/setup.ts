// The editor core plus only what a read-only diff viewer needs; no CDN, nothing fetched at run time.
import * as monaco from 'monaco-editor/editor';
import 'monaco-editor/features/codicon/register';
import 'monaco-editor/features/diffEditor/register';
import 'monaco-editor/features/find/register';
import 'monaco-editor/features/folding/register';
import 'monaco-editor/features/clipboard/register';
import 'monaco-editor/features/contextmenu/register';
import 'monaco-editor/features/bracketMatching/register';
import 'monaco-editor/features/gotoLine/register';
// Syntax colouring: each language's tokenizer is its own chunk, loaded when a file needs it.
import 'monaco-editor/languages/definitions/register.all';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';

// Only the base editor worker (diff computation, links); no language-service workers. The first one
// starts loading with this module, so a diff is not kept waiting for the worker's script.
let warmWorker: Worker | null = new EditorWorker();
self.MonacoEnvironment = {
  getWorker: () => {
    const worker = warmWorker ?? new EditorWorker();
    warmWorker = null;
    return worker;
  },
};

export { monaco };
