import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandHome, parseModelSpec } from './modelSpec';

describe('model specs', () => {
  it('resolves llama and replay paths against the given cwd', () => {
    expect(parseModelSpec('llama:models/x.gguf', { cwd: '/work' })).toEqual({
      ok: true,
      value: { kind: 'llama', spec: 'llama:models/x.gguf', modelPath: path.resolve('/work/models/x.gguf') },
    });
    expect(parseModelSpec('replay:/r/run.json')).toEqual({
      ok: true,
      value: { kind: 'replay', spec: 'replay:/r/run.json', filePath: '/r/run.json' },
    });
  });

  it('maps ollama:NAME to the local Ollama server', () => {
    expect(parseModelSpec('ollama:qwen2.5-coder:7b')).toEqual({
      ok: true,
      value: {
        kind: 'openai',
        spec: 'ollama:qwen2.5-coder:7b',
        baseUrl: 'http://127.0.0.1:11434/v1',
        model: 'qwen2.5-coder:7b',
      },
    });
  });

  it('reads openai:URL#MODEL and adds /v1 when the URL has no path', () => {
    const withPath = parseModelSpec('openai:http://localhost:8080/v1/#qwen');
    expect(withPath.ok && withPath.value).toMatchObject({ baseUrl: 'http://localhost:8080/v1', model: 'qwen' });
    const bare = parseModelSpec('openai:http://127.0.0.1:1234#lm');
    expect(bare.ok && bare.value).toMatchObject({ baseUrl: 'http://127.0.0.1:1234/v1', model: 'lm' });
    expect(parseModelSpec('openai:http://[::1]:9000/api#m').ok).toBe(true);
  });

  // docs/seeds.md 0.1: no network at run time: model servers on loopback only
  it('refuses hosts that are not loopback unless allowed', () => {
    const refused = parseModelSpec('openai:http://192.168.1.20:8080/v1#m');
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.message).toMatch(/another host.*models\.allow_hosts/);
    expect(parseModelSpec('openai:http://gpu-box:8080/v1#m', { allowedHosts: ['gpu-box'] }).ok).toBe(true);
    expect(parseModelSpec('openai:http://evil.example/v1#m', { allowedHosts: ['gpu-box'] }).ok).toBe(false);
  });

  it.each([
    ['qwen.gguf', /no provider prefix/],
    ['llama:model.bin', /not a \.gguf/],
    ['openai:http://127.0.0.1:8080/v1', /openai:URL#MODEL/],
    ['openai:ftp://127.0.0.1/x#m', /http or https/],
    ['openai:http://user:pw@127.0.0.1/v1#m', /credentials/],
    ['mystery:thing', /unknown model provider/],
    ['llama:', /names no model/],
  ])('rejects %s', (spec, message) => {
    const result = parseModelSpec(spec);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(message);
  });

  it('reads ~ as the home folder in llama: and replay: paths, never a folder named ~', () => {
    expect(expandHome('~/models/x.gguf', '/home/me')).toBe('/home/me/models/x.gguf');
    expect(expandHome('~', '/home/me')).toBe('/home/me');
    expect(expandHome('~other/x.gguf', '/home/me')).toBe('~other/x.gguf');
    expect(expandHome('models/~/x.gguf', '/home/me')).toBe('models/~/x.gguf');
    const parsed = parseModelSpec('llama:~/m.gguf', { cwd: '/work' });
    expect(parsed.ok && parsed.value).toMatchObject({ kind: 'llama', modelPath: path.join(os.homedir(), 'm.gguf') });
    const replay = parseModelSpec('replay:~/r.json', { cwd: '/work' });
    expect(replay.ok && replay.value).toMatchObject({ kind: 'replay', filePath: path.join(os.homedir(), 'r.json') });
  });

  it('says which refusals are about the host', () => {
    expect(parseModelSpec('openai:http://10.0.0.2:8080/v1#m')).toMatchObject({
      ok: false,
      problem: 'HOST_NOT_ALLOWED',
    });
    expect(parseModelSpec('llama:model.bin')).toMatchObject({ ok: false, problem: 'BAD_MODEL_SPEC' });
  });
});
