import { contextBridge, ipcRenderer } from 'electron';
import { eventNames, requestChannelNames, type EventName } from '../../shared/contract/channels';
import { createEventSubscribers, createRequestFunctions, type BridgeApi } from '../../shared/contract/api';
import { ELECTRON_EVENT_CHANNEL } from '../../shared/contract/wire';
import type { Result } from '../../shared/result';

interface EventFrame {
  name: EventName;
  payload: unknown;
}

function subscribe(name: EventName, listener: (payload: unknown) => void): () => void {
  // Electron's own event object stays here: the page only ever sees the contract payload.
  const onFrame = (_event: unknown, frame: EventFrame) => {
    if (frame.name === name) listener(frame.payload);
  };
  ipcRenderer.on(ELECTRON_EVENT_CHANNEL, onFrame);
  return () => ipcRenderer.removeListener(ELECTRON_EVENT_CHANNEL, onFrame);
}

const bridge: BridgeApi = {
  requests: createRequestFunctions(
    (channel, payload) => ipcRenderer.invoke(channel, payload) as Promise<Result<unknown>>,
    requestChannelNames,
  ),
  events: createEventSubscribers(subscribe, eventNames),
};

contextBridge.exposeInMainWorld('lathe', bridge);
