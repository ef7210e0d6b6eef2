import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { requestChannelNames } from '../../shared/contract/channels';
import type { Handlers } from '../../shared/contract/api';
import { ELECTRON_EVENT_CHANNEL } from '../../shared/contract/wire';
import { LatheError } from '../../shared/errors';
import { failure } from '../../shared/result';
import { dispatch } from '../core/api/dispatch';
import type { EventBus } from '../core/runs/eventBus';

/** Registers one ipcMain handler per contract channel and forwards core events to the window. */
export function registerIpc(
  handlers: Handlers,
  events: EventBus,
  isTrustedSender: (event: IpcMainInvokeEvent) => boolean,
): void {
  for (const channel of requestChannelNames) {
    ipcMain.handle(channel, (event, payload: unknown) => {
      if (!isTrustedSender(event)) {
        return failure(new LatheError('FORBIDDEN', 'request from an untrusted frame').toShape());
      }
      return dispatch(handlers, channel, payload);
    });
  }
}

export function forwardEvents(events: EventBus, window: BrowserWindow): () => void {
  return events.subscribe((name, payload) => {
    if (!window.isDestroyed()) window.webContents.send(ELECTRON_EVENT_CHANNEL, { name, payload });
  });
}
