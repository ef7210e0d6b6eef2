import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ROOT, runFixturePerTest } from '../../../test-support/exampleRepo';
import { resolveRunConfig } from '../config/resolveConfig';
import { createDefaultDeps, createEngineEnv } from './defaultDeps';
import { startRun } from './runner';
import { readLog } from './runStore';

const setup = runFixturePerTest();
const REMOTE = '127.0.0.2';
const seen: (string | undefined)[] = [];
let server: http.Server;
let port = 0;

beforeAll(async () => {
  // Answers every call with an empty object: enough to see who called, with which token.
  server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      seen.push(request.headers.authorization);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          choices: [{ index: 0, message: { role: 'assistant', content: '{}' }, finish_reason: 'stop' }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, REMOTE, resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

async function runAgainstRemote(configYaml: string | null, goal = 'fix median') {
  const { repo, dataDir } = setup();
  if (configYaml !== null) {
    fs.writeFileSync(path.join(repo.dir, 'lathe.config.yaml'), configYaml);
    repo.commitAll('configure the model server');
  }
  seen.length = 0;
  const config = resolveRunConfig(
    { repoRoot: repo.dir },
    { workflow: 'minimal', model: `openai:http://${REMOTE}:${port}/v1#big-model` },
  );
  config.limits.agent_retries = 0;
  const env = createEngineEnv({ appRoot: APP_ROOT, dataDir, retryBackoffMs: 1, deps: createDefaultDeps() });
  const state = await startRun(env, { repoRoot: repo.dir, goal, config });
  return { state, log: readLog(path.join(repo.dir, '.lathe', 'runs', state.run_id, 'log.jsonl')) };
}

describe("a run's model server on another host", () => {
  it('is refused at the start unless the configuration allows it, naming the setting to change', async () => {
    await expect(runAgainstRemote(null)).rejects.toThrow(/another host.*models\.allow_hosts/);
    expect(seen).toEqual([]);
  });

  it('is reached with the bearer token from the variable models.token_env names', async () => {
    process.env.LATHE_TEST_TEAM_TOKEN = 'from-the-env';
    try {
      const { state } = await runAgainstRemote(
        `models:\n  allow_hosts: [${REMOTE}]\n  token_env: LATHE_TEST_TEAM_TOKEN\n`,
      );
      expect(seen.length).toBeGreaterThan(0);
      expect(new Set(seen)).toEqual(new Set(['Bearer from-the-env']));
      // The token is read from the environment at each call: never written into the run's files.
      const runDir = path.join(state.workspace?.repoRoot ?? '', '.lathe', 'runs', state.run_id);
      for (const name of fs.readdirSync(runDir, { recursive: true, encoding: 'utf8' }))
        if (fs.statSync(path.join(runDir, name)).isFile())
          expect(fs.readFileSync(path.join(runDir, name), 'utf8')).not.toContain('from-the-env');
    } finally {
      delete process.env.LATHE_TEST_TEAM_TOKEN;
    }
  });

  it('records its calls with the token, secret environment values and API keys redacted', async () => {
    process.env.LATHE_TEST_TEAM_TOKEN = 'team-token-0123456789';
    process.env.LATHE_TEST_API_KEY = 'env-secret-abcdef';
    const key = 'sk-proj0123456789abcdefghij';
    try {
      const goal = `fix median; the service key is ${key}, the team token team-token-0123456789 and the other env-secret-abcdef`;
      const { state, log } = await runAgainstRemote(
        `models:\n  allow_hosts: [${REMOTE}]\n  token_env: LATHE_TEST_TEAM_TOKEN\n`,
        goal,
      );
      const callsDir = path.join(state.workspace?.repoRoot ?? '', '.lathe', 'runs', state.run_id, 'calls');
      const files = fs.readdirSync(callsDir);
      expect(files).toHaveLength(log.filter((event) => event.type === 'agent_call').length);
      expect(files.length).toBeGreaterThan(0);
      for (const name of files) {
        const text = fs.readFileSync(path.join(callsDir, name), 'utf8');
        expect(text).toContain('[redacted]');
        for (const secret of [key, 'team-token-0123456789', 'env-secret-abcdef', 'Bearer team'])
          expect(text).not.toContain(secret);
      }
    } finally {
      delete process.env.LATHE_TEST_TEAM_TOKEN;
      delete process.env.LATHE_TEST_API_KEY;
    }
  });
});
