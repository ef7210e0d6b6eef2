import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnLathe, waitForLine } from '../../../../test-support/runCli';
import { makeTempDir, makeTempRepo, type TempRepo } from '../../../../test-support/tempRepo';

function status(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
      .on('error', reject);
  });
}

const rendererBuilt = fs.existsSync(path.resolve('out/renderer/index.html'));
let repo: TempRepo;
beforeAll(() => {
  repo = makeTempRepo({ files: { 'README.md': '# x\n' } });
});
afterAll(() => repo.remove());

describe('lathe serve (process)', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'prints one tokenised 127.0.0.1 URL and stops cleanly on %s',
    async (signal) => {
      if (!rendererBuilt)
        return expect.fail('run `npm run build` before the unit tests: lathe serve needs out/renderer');
      const child = spawnLathe(['serve', '--port', '0', '--repo', repo.dir], { env: { LATHE_HOME: makeTempDir() } });
      const url = await waitForLine(child, /^http:\/\//);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{32}&repo=/);
      const parsed = new URL(url);
      expect(await status(url)).toBe(200);
      expect(await status(`${parsed.origin}/`)).toBe(403);
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill(signal);
      expect(await exited).toBe(0);
    },
  );
});
