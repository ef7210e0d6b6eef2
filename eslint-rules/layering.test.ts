import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// Lints fixture sources as if they sat at these paths, through the project's real eslint.config.js.
const eslint = new ESLint({ cwd: process.cwd() });

async function layeringErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'lathe/layering')
    .map((message) => message.message);
}

describe('lathe/layering', () => {
  it("fails electron/core importing 'electron'", async () => {
    const errors = await layeringErrors(
      'electron/core/engine/fixture.ts',
      "import { app } from 'electron';\nexport const x = app;\n",
    );
    expect(errors).toEqual([expect.stringContaining("electron/core must not import 'electron'")]);
  });

  it("fails electron/core requiring or dynamically importing 'electron'", async () => {
    const code = "export const a = require('electron');\nexport const b = () => import('electron/main');\n";
    expect(await layeringErrors('electron/core/fixture.ts', code)).toHaveLength(2);
  });

  it('fails the renderer importing anything under electron/', async () => {
    const code = "import { dispatch } from '../../electron/core/api/dispatch';\nexport const x = dispatch;\n";
    const errors = await layeringErrors('renderer/src/fixture.ts', code);
    expect(errors).toEqual([expect.stringContaining('renderer must not import electron/core')]);
  });

  it('fails shared importing the renderer, the core or a Node built-in', async () => {
    const code = [
      "import { App } from '../renderer/src/App';",
      "import { dispatch } from '../electron/core/api/dispatch';",
      "import fs from 'node:fs';",
      'export const x = [App, dispatch, fs];',
    ].join('\n');
    expect(await layeringErrors('shared/fixture.ts', code)).toHaveLength(3);
  });

  it('allows what each layer may import', async () => {
    expect(
      await layeringErrors(
        'electron/main/fixture.ts',
        "import { app } from 'electron';\nimport { dispatch } from '../core/api/dispatch';\nexport const x = [app, dispatch];\n",
      ),
    ).toEqual([]);
    expect(
      await layeringErrors(
        'electron/core/fixture.ts',
        "import fs from 'node:fs';\nimport { ok } from '../../shared/result';\nexport const x = [fs, ok];\n",
      ),
    ).toEqual([]);
    expect(
      await layeringErrors(
        'renderer/src/fixture.ts',
        "import { ok } from '../../shared/result';\nexport const x = ok;\n",
      ),
    ).toEqual([]);
  });

  it('fails a foundation floor importing one above it: git importing the Verifier, the tools or the core above', async () => {
    const code = [
      "import { verify } from '../verifier/verify';",
      "import { listRepoFiles } from '../tools/listFiles';",
      "import { startRun } from '../engine/runner';",
      'export const x = [verify, listRepoFiles, startRun];',
    ].join('\n');
    const errors = await layeringErrors('electron/core/git/fixture.ts', code);
    expect(errors).toEqual([
      expect.stringContaining('electron/core/git must not import electron/core/verifier'),
      expect.stringContaining('electron/core/git must not import electron/core/tools'),
      expect.stringContaining('electron/core/git must not import electron/core above the foundation'),
    ]);
    expect(
      await layeringErrors(
        'electron/core/basics/fixture.ts',
        "import { x } from '../git/gitDirs';\nexport const y = x;\n",
      ),
    ).toHaveLength(1);
  });

  it('allows a floor its own and lower floors, and the core above any floor; a test may reach up', async () => {
    const down =
      "import { runProcess } from '../basics/processTree';\nimport { isMissing } from '../fsErrors';\nimport { resolveGitDirs } from '../git/gitDirs';\nexport const x = [runProcess, isMissing, resolveGitDirs];\n";
    expect(await layeringErrors('electron/core/verifier/fixture.ts', down)).toEqual([]);
    expect(
      await layeringErrors(
        'electron/core/engine/fixture.ts',
        "import { verify } from '../workspace/index';\nexport const x = verify;\n",
      ),
    ).toEqual([]);
    expect(
      await layeringErrors(
        'electron/core/git/fixture.test.ts',
        "import { startRun } from '../engine/runner';\nexport const x = startRun;\n",
      ),
    ).toEqual([]);
  });
});
