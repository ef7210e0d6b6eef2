import { dialog, type BrowserWindow } from 'electron';
import type { Handler } from '../../shared/contract/api';
import type { ShellChannel } from '../../shared/contract/channels';

/** The channels only the desktop shell can answer. */
export function createShellHandlers(getWindow: () => BrowserWindow | null): { [C in ShellChannel]: Handler<C> } {
  return {
    'dialog/openFolder': async () => {
      const window = getWindow();
      const options = { title: 'Open a git repository', properties: ['openDirectory' as const] };
      const result = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
      return { path: result.canceled ? null : (result.filePaths[0] ?? null) };
    },
  };
}
