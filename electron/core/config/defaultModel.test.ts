import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configFromWorkflow } from '../../../shared/engine/configFromWorkflow';
import { WORKFLOWS } from '../../../shared/engine/workflows';
import { writeJunkGguf, writeTinyModel } from '../../../test-support/gguf';
import { makeTempDir } from '../../../test-support/tempRepo';
import { fillDefaultModels } from './defaultModel';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function home(): string {
  const dir = makeTempDir('lathe-data-');
  dirs.push(dir);
  return dir;
}

const options = (dataDir: string) => ({
  dataDir,
  env: { LATHE_HOME: dataDir },
  inspect: { isArchitectureSupported: () => true },
});
const config = configFromWorkflow(WORKFLOWS.minimal);

describe('fillDefaultModels', () => {
  it('uses the one usable GGUF in the library (a rejected file beside it does not count)', async () => {
    const dataDir = home();
    const { modelPath } = writeTinyModel(path.join(dataDir, 'models'));
    writeJunkGguf(path.join(dataDir, 'models'));
    const filled = await fillDefaultModels(config, ['coder', 'planner'], options(dataDir));
    expect(filled.unresolved).toBeNull();
    expect(filled.choices).toEqual([
      {
        spec: `llama:${modelPath}`,
        roles: ['coder', 'planner'],
        source: `the only usable model in the library (${path.join(dataDir, 'models')})`,
      },
    ]);
    expect(filled.config.models).toEqual({
      coder: { model: `llama:${modelPath}` },
      planner: { model: `llama:${modelPath}` },
    });
  });

  it("prefers a role's model in settings, then the default model, and only fills the roles asked for", async () => {
    const dataDir = home();
    writeTinyModel(path.join(dataDir, 'models'));
    fs.writeFileSync(
      path.join(dataDir, 'settings.json'),
      JSON.stringify({ defaultModel: 'ollama:qwen', roleModels: { tester: 'replay:/t.json' } }),
    );
    const filled = await fillDefaultModels(config, ['coder', 'tester'], options(dataDir));
    expect(filled.choices).toEqual([
      { spec: 'ollama:qwen', roles: ['coder'], source: 'the default model in settings' },
      { spec: 'replay:/t.json', roles: ['tester'], source: 'the tester model in settings' },
    ]);
    expect(filled.config.models.planner).toBeUndefined();
  });

  it('guesses nothing with no usable GGUF', async () => {
    const dataDir = home();
    const filled = await fillDefaultModels(config, ['coder'], options(dataDir));
    expect(filled).toMatchObject({
      choices: [],
      unresolved: expect.stringMatching(/^no usable GGUF in .* and no default model in settings$/),
    });
  });
});
