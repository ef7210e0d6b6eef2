import type { BridgeApi } from '../../shared/contract/api';

declare global {
  interface Window {
    /** Present only inside the Electron window (the preload bridge). */
    lathe?: BridgeApi;
  }
}
