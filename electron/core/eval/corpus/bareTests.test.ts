import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempRepo } from '../../../../test-support/tempRepo';
import { bareEnvironment, bareResult, runBareTests } from './bareTests';

const hasGo = spawnSync('go', ['version'], { stdio: 'ignore' }).status === 0;

describe('the bare run', () => {
  it('asks go for -v through GOFLAGS, once, keeping the flags the user set', () => {
    expect(bareEnvironment({ PATH: '/bin' }).GOFLAGS).toBe('-v');
    expect(bareEnvironment({ GOFLAGS: '-mod=vendor  -v' }).GOFLAGS).toBe('-mod=vendor -v');
    expect(bareEnvironment({ GOFLAGS: '-v=false -count=1' }).GOFLAGS).toBe('-count=1 -v');
    expect(bareEnvironment({ PATH: '/bin' })).toMatchObject({ PATH: '/bin', CI: 'true', NO_COLOR: '1' });
  });

  describe.skipIf(!hasGo)('on a go module', () => {
    const repo = makeTempRepo({ prefix: 'lathe-bare-go-' });
    const scratch = fs.mkdtempSync(path.join(repo.dir, '..', 'lathe-bare-gocache-'));
    const saved = { GOCACHE: process.env.GOCACHE, GOFLAGS: process.env.GOFLAGS };
    afterAll(() => {
      repo.remove();
      fs.rmSync(scratch, { recursive: true, force: true });
      Object.assign(process.env, saved);
    });

    it('counts the tests of a bare `go test ./...`, which alone prints only `ok <package>`', async () => {
      repo.write('go.mod', 'module example.test/add\n\ngo 1.18\n');
      repo.write('add.go', 'package add\n\nfunc Add(a, b int) int { return a + b }\n');
      repo.write(
        'add_test.go',
        'package add\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("sum")\n\t}\n}\n\nfunc TestTable(t *testing.T) {\n\tfor _, name := range []string{"one", "two"} {\n\t\tt.Run(name, func(t *testing.T) {})\n\t}\n}\n\nfunc TestSkipped(t *testing.T) { t.Skip("later") }\n',
      );
      const commit = repo.commitAll('a module');
      process.env.GOCACHE = scratch;
      delete process.env.GOFLAGS;
      const plain = spawnSync('sh', ['-c', 'go test ./...'], { cwd: repo.dir, encoding: 'utf8', env: process.env });
      expect(plain.stdout).toMatch(/^ok\s+example\.test\/add/);
      expect(plain.stdout).not.toMatch(/--- PASS/);
      const result = bareResult(await runBareTests(repo.dir, commit, 'go test ./...', { timeoutMs: 120_000 }));
      expect(result).toMatchObject({ exit_code: 0, counts: { passed: 3, failed: 0, skipped: 1, total: 4 } });
    }, 180_000);
  });
});
