/** The tokens one agent call cost, as the run log and the call's record count them. */
export interface CallUsage {
  prompt_tokens: number;
  completion_tokens: number;
  /** Of the prompt tokens, those served from a reused KV-cache prefix (the rest is new prefill); absent: 0. */
  cached_tokens?: number;
  /** Some count is an estimate (oracle/replay models, a server that gave none). */
  estimated?: boolean;
}
