import type { ModelRole } from '../../../shared/schemas/roles';
import type { SharedModelPool } from './sharedPool';
import type { LlmEvent, RoleModelConfig } from './types';

// Apart from ./types because it names the shared llama pool, which itself builds on ./types.
export interface ModelRouterOptions {
  roles: Partial<Record<ModelRole, RoleModelConfig>>;
  /** CPU threads for llama models; default: the machine's physical cores. */
  threads?: number;
  onEvent?: (event: LlmEvent) => void;
  /** Hosts besides loopback that `openai:`/`ollama:` specs may reach (`models.allow_hosts`; empty by default). */
  allowedHosts?: string[];
  /**
   * The environment variable holding a bearer token for `openai:`/`ollama:` servers (`models.token_env`),
   * read at each call and sent only to those servers; the token itself is never stored or logged.
   */
  serverTokenEnv?: string;
  /** Replay only: entries already consumed per role, so a resumed run continues where it stopped. */
  replayConsumed?: Partial<Record<ModelRole, number>>;
  /** Unload a llama model after this long unused (default 10 minutes). */
  idleUnloadMs?: number;
  /** Load `llama:` models into this pool, shared with other routers (runs), instead of one of its own. */
  sharedPool?: SharedModelPool;
}
