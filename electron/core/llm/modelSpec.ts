import os from 'node:os';
import path from 'node:path';
import type { FaultSettings } from './oracle/faults/faultSettings';
import { splitFaultSpec } from './oracle/faults/faultSpec';

/** A parsed `RoleModelConfig.model` string. */
export type ModelSpec =
  | { kind: 'llama'; spec: string; modelPath: string }
  | { kind: 'openai'; spec: string; baseUrl: string; model: string }
  | { kind: 'replay'; spec: string; filePath: string }
  | { kind: 'oracle'; spec: string; patchPath: string; faults: FaultSettings | null };

/** Why a spec was refused: `HOST_NOT_ALLOWED` for a network spec naming a host Lathe may not reach. */
export type ModelSpecProblem = 'BAD_MODEL_SPEC' | 'HOST_NOT_ALLOWED';

export type ModelSpecResult =
  { ok: true; value: ModelSpec } | { ok: false; message: string; problem: ModelSpecProblem };

export const OLLAMA_BASE_URL = 'http://127.0.0.1:11434/v1';

/**
 * This machine's own addresses. Other 127.x addresses count as other hosts: port forwards and
 * containers live there, and the tests stand a "remote" model server on 127.0.0.2.
 */
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_NAMES.has(hostname.toLowerCase());
}

/** The setting that lets `openai:`/`ollama:` specs reach a model server on another host. */
export const ALLOW_HOSTS_SETTING = 'models.allow_hosts';

/** `oracle:` with no file: "the task's gold patch", which only a corpus eval can supply. */
export const BARE_ORACLE_SPEC = 'oracle:';

export function isBareOracleSpec(spec: string): boolean {
  return spec.trim() === BARE_ORACLE_SPEC;
}

/** The spec a corpus eval gives each task once it has written the task's gold patch to `patchFile`. */
export function oracleSpecFor(patchFile: string): string {
  return `${BARE_ORACLE_SPEC}${patchFile}`;
}

/**
 * `~` and `~/…` are the user's home folder. A shell never expands them inside `llama:~/…`, and YAML
 * never does, so the spec does (docs/models.md).
 */
export function expandHome(file: string, home: string = os.homedir()): string {
  if (file === '~') return home;
  return file.startsWith('~/') || (path.sep === '\\' && file.startsWith('~\\')) ? path.join(home, file.slice(2)) : file;
}

/** A file path in a spec, absolute: `~` expanded, relative paths from `cwd`. */
export function specFilePath(file: string, cwd: string): string {
  return path.resolve(cwd, expandHome(file));
}

export interface ParseSpecOptions {
  /** Hosts besides loopback that `openai:` specs may name (`host` or `host:port`). */
  allowedHosts?: readonly string[];
  /** Relative paths resolve against this (default: the process cwd). */
  cwd?: string;
}

/**
 * `llama:PATH.gguf` | `ollama:NAME` | `openai:URL#MODEL` | `replay:FILE.json` | `oracle:PATCH.diff`.
 * Network specs must name loopback or an allowed host; this is checked here, before anything connects.
 */
export function parseModelSpec(spec: string, options: ParseSpecOptions = {}): ModelSpecResult {
  const cwd = options.cwd ?? process.cwd();
  const colon = spec.indexOf(':');
  if (colon <= 0)
    return refused(`model spec '${spec}' has no provider prefix (llama:, ollama:, openai:, replay:, oracle:)`);
  const kind = spec.slice(0, colon);
  const rest = spec.slice(colon + 1).trim();
  if (rest === '' && kind === 'oracle') {
    return refused(
      "'oracle:' without a patch file means each task's gold patch, which only `lathe eval --corpus DIR` can supply; elsewhere name the patch: oracle:PATH.diff",
    );
  }
  if (rest === '') return refused(`model spec '${spec}' names no model`);
  switch (kind) {
    case 'llama':
      if (!rest.toLowerCase().endsWith('.gguf')) return refused(`llama model '${rest}' is not a .gguf file`);
      return { ok: true, value: { kind: 'llama', spec, modelPath: specFilePath(rest, cwd) } };
    case 'replay':
      return { ok: true, value: { kind: 'replay', spec, filePath: specFilePath(rest, cwd) } };
    case 'oracle': {
      // `oracle:PATCH#faults=…`: the writer's answers spoiled as a 7B model spoils them (docs/oracle-model.md).
      const split = splitFaultSpec(rest);
      if (!split.ok) return refused(`${split.message} in '${spec}'`);
      if (split.value.patch === '') return refused(`'${spec}' names no patch file before its fault settings`);
      return {
        ok: true,
        value: { kind: 'oracle', spec, patchPath: specFilePath(split.value.patch, cwd), faults: split.value.faults },
      };
    }
    case 'ollama':
      if (rest.includes('#') || rest.includes('://'))
        return refused(`ollama model name '${rest}' must be a plain name such as qwen2.5-coder:7b`);
      return checkedOpenAi(spec, OLLAMA_BASE_URL, rest, options);
    case 'openai': {
      const hash = rest.lastIndexOf('#');
      if (hash <= 0 || hash === rest.length - 1) return refused(`openai spec '${spec}' must be openai:URL#MODEL`);
      return checkedOpenAi(spec, rest.slice(0, hash), rest.slice(hash + 1), options);
    }
    default:
      return refused(`unknown model provider '${kind}' in '${spec}' (llama:, ollama:, openai:, replay:, oracle:)`);
  }
}

function checkedOpenAi(spec: string, baseUrl: string, model: string, options: ParseSpecOptions): ModelSpecResult {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return refused(`'${baseUrl}' in '${spec}' is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return refused(`'${baseUrl}' must be http or https`);
  if (url.username || url.password) return refused(`'${spec}' must not embed credentials in the URL`);
  const allowed = (options.allowedHosts ?? []).map((host) => host.toLowerCase());
  if (
    !isLoopbackHost(url.hostname) &&
    !allowed.includes(url.hostname.toLowerCase()) &&
    !allowed.includes(url.host.toLowerCase())
  ) {
    return {
      ok: false,
      problem: 'HOST_NOT_ALLOWED',
      message: `'${url.host}' is another host; Lathe reaches a model server beyond this machine only when ${ALLOW_HOSTS_SETTING} lists it (in lathe.config.yaml: models: { allow_hosts: [${url.hostname}] })`,
    };
  }
  const trimmed = url.pathname.replace(/\/+$/, '');
  const base = `${url.origin}${trimmed === '' ? '/v1' : trimmed}`;
  return { ok: true, value: { kind: 'openai', spec, baseUrl: base, model } };
}

function refused(message: string): ModelSpecResult {
  return { ok: false, problem: 'BAD_MODEL_SPEC', message };
}
