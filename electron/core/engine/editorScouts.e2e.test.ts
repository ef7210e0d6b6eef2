import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_ROOT, runFixturePerTest, treeAt, writeReplay } from '../../../test-support/exampleRepo';
import type { TempRepo } from '../../../test-support/tempRepo';
import { entry, STATS, wrongTry } from '../../../test-support/transcripts';
import { resolveRunConfig } from '../config/resolveConfig';
import { requestInput } from '../llm/oracle/requestView';
import type { ModelRouterOptions } from '../llm/routerOptions';
import type { GenerateRequest } from '../llm/types';
import { createDefaultDeps, createEngineEnv } from './defaultDeps';
import { resumeRun, startRun } from './runner';
import { readLog } from './runStore';
import type { RunConfig } from '../../../shared/engine/runConfig';
import { RunOperations } from '../runs/runOperations';

const setup = runFixturePerTest();

const brief = {
  role: 'editor',
  json: {
    behavior_change: 'median() returns the middle value of the sorted list',
    success_criteria: ['the median test passes', 'the input array is not changed'],
    non_goals: ['changing mean()'],
    questions: [
      { scout: 'A', question: 'Where is median implemented and what does it call?' },
      { scout: 'B', question: 'How are the tests run, and which one fails?' },
    ],
  },
};
const report = (summary: string, hypotheses: string[]) => ({
  summary,
  repo_map: ['src/stats.js: mean, median'],
  target_files: ['src/stats.js'],
  apis: ['median(values)'],
  constraints: ['do not mutate the input'],
  prior_art: [],
  verification_tips: ['node --test'],
  hypotheses,
});
const scoutRound = (n: number) => [
  { role: 'scout', json: { action: 'search', query: 'median', regex: false } },
  { role: 'scout', json: { action: 'read_file', path: 'src/stats.js' } },
  {
    role: 'scout',
    json: { action: 'answer', report: report(`round ${n}: median returns mean()`, [`round ${n}: median never sorts`]) },
  },
  { role: 'scout', json: { action: 'run_tests' } },
  { role: 'scout', json: { action: 'run_command', argv: ['rm', '-rf', '.'] } },
  {
    role: 'scout',
    json: {
      action: 'answer',
      report: report(`round ${n}: the median test fails`, [
        `round ${n}: even-length lists need the average of the middle pair`,
      ]),
    },
  },
];

async function run(repo: TempRepo, dataDir: string, outputs: unknown[], edit: (config: RunConfig) => void = () => {}) {
  const config = resolveRunConfig(
    { repoRoot: repo.dir },
    { workflow: 'editor-scouts', model: writeReplay(dataDir, 'transcript', outputs), editFormat: 'whole-file' },
  );
  edit(config);
  const requests: GenerateRequest<unknown>[] = [];
  const deps = createDefaultDeps();
  const createModels = (options: ModelRouterOptions) => {
    const router = deps.createModels(options);
    return {
      ...router,
      generate: <T>(request: GenerateRequest<T>) => (
        requests.push(request as GenerateRequest<unknown>),
        router.generate(request)
      ),
    };
  };
  const recording = { ...deps, createModels };
  const env = createEngineEnv({ appRoot: APP_ROOT, dataDir, retryBackoffMs: 1, deps: recording });
  const state = await startRun(env, { repoRoot: repo.dir, goal: 'fix median', config });
  const runDir = path.join(repo.dir, '.lathe', 'runs', state.run_id);
  return { state, runDir, env, log: readLog(path.join(runDir, 'log.jsonl')), requests };
}

describe('editor-scouts (seed 004) end to end', () => {
  // docs/seeds.md 4.1 (the Editor is the only writer: repo clean after Scouts), 4.3 (Scouts A and B), 4.4 (rm -rf . rejected), 4.5 (context files), 4.6 (the snapshot's sections), 4.10, 4.17
  it('pulls the Scouts through their read-only tools, records context files, and the Editor goes green', async () => {
    const { repo, dataDir } = setup();
    const { state, runDir, log, requests } = await run(repo, dataDir, [
      brief,
      ...scoutRound(1),
      entry.editor(STATS.fixed),
    ]);
    expect(state.result).toMatchObject({ status: 'complete', exit_code: 0 });
    expect(
      fs
        .readdirSync(runDir)
        .filter((name) => name.startsWith('context_'))
        .sort(),
    ).toEqual(['context_001.json', 'context_001.md', 'context_002.json', 'context_002.md', 'context_latest.md']);
    // The Editor writes with both Scouts' reports merged, and with its own success criteria and non-goals.
    const editorCall = requests.find(
      (request) =>
        request.role === 'editor' && request.messages.some((message) => message.content.includes('"attempt"')),
    );
    const editorInput = requestInput(editorCall?.messages ?? []) ?? {};
    expect(editorInput).toMatchObject({
      success_criteria: brief.json.success_criteria,
      non_goals: brief.json.non_goals,
      behavior_change: brief.json.behavior_change,
    });
    expect(editorInput.scout_report).toContain('round 1: median returns mean()');
    expect(editorInput.scout_report).toContain('round 1: the median test fails');
    expect(editorInput.scout_report).toContain('Scouts A, B (2 reports)');
    const scoutB = fs.readFileSync(path.join(runDir, 'context_002.md'), 'utf8');
    expect(scoutB).toContain('Scout B');
    expect(scoutB).toMatch(/run_tests.*FAIL/);
    expect(scoutB).toContain('rejected by the allowlist');
    expect(fs.readFileSync(path.join(runDir, 'context_latest.md'), 'utf8')).toContain('latest: context_002.md');
    expect(repo.git('status', '--porcelain')).toBe('');
    expect(treeAt(repo, state.branch ?? '')['src/stats.js']).toBe(STATS.fixed.trimEnd());
    expect(
      log.filter((event) => event.type === 'scout_report').map((event) => [event.data.scout, event.data.tool_calls]),
    ).toEqual([
      ['A', 2],
      ['B', 2],
    ]);
    const reportText = fs.readFileSync(path.join(runDir, 'report.md'), 'utf8');
    expect(reportText).toContain('- [x] Verifier returns PASS');
    // Seed 004's definition of done, checked from the diff (4.17).
    expect(reportText).toMatch(
      /- \[x\] Diff is minimal: 1 file\(s\), \d+ line\(s\) changed; no whitespace-only or reverted changes/,
    );
    expect(reportText).toContain(
      '- [x] New or changed behaviour has tests: existing tests exercise the change: src/stats.js ← test/stats.test.js',
    );
    expect(log.find((event) => event.type === 'definition_of_done')?.data.checks).toHaveLength(4);
  });

  // docs/seeds.md 4.10 (debug loop), 4.11, 4.12, 4.13, 4.14 (RETAINED.json)
  it('REPLANs at exactly 3, 6 and 9 failed verify loops, hard-stops at 12, and writes a stuck report', async () => {
    const { repo, dataDir } = setup();
    const rounds = [1, 2, 3, 4].flatMap((n) => [
      brief,
      ...scoutRound(n),
      ...[1, 2, 3].map((k) => entry.editor(wrongTry(n * 10 + k))),
    ]);
    const { state, runDir, log } = await run(repo, dataDir, rounds);
    expect(state.result).toMatchObject({ status: 'stuck', exit_code: 1 });
    const counters = log.filter((event) => event.type === 'counters');
    expect(
      counters
        .map((event) => event.data.decision)
        .flatMap((decision, index) => (decision === 'retry' ? [] : [`${index + 1}:${String(decision)}`])),
    ).toEqual(['3:replan', '6:replan', '9:replan', '12:hard_stop']);
    expect(log.filter((event) => event.type === 'scout_brief')).toHaveLength(4);
    const stuck = fs.readFileSync(path.join(runDir, 'stuck-report.md'), 'utf8');
    expect(stuck).toContain('hard stop: 12 verify loops');
    expect(stuck).toContain('round 4: median never sorts');
    expect(stuck).toMatch(/## Last failures[\s\S]*median is the middle value/);
    const artifacts = [...stuck.matchAll(/^- (\/.+)$/gm)].map((match) => match[1] ?? '');
    expect(artifacts.length).toBeGreaterThan(0);
    for (const dir of artifacts) expect(fs.readdirSync(dir)).toContain('RETAINED.json');
  });

  // docs/seeds.md 4.15 (3 retries, then INFRA_ERROR), 4.16
  it('ends at once with a stuck report when a Scout fails every retry (INFRA_ERROR)', async () => {
    const { repo, dataDir } = setup();
    const failing = Array.from({ length: 4 }, () => entry.error('scout', 'model server went away'));
    const { state, runDir, log } = await run(repo, dataDir, [brief, ...failing]);
    expect(state.result).toMatchObject({ status: 'stuck', exit_code: 2 });
    expect(log.filter((event) => event.type === 'agent_retry' && event.role === 'scout')).toHaveLength(3);
    expect(
      log.some((event) => event.type === 'agent_call' && event.role === 'editor' && event.data.purpose === 'code'),
    ).toBe(false);
    expect(fs.readFileSync(path.join(runDir, 'stuck-report.md'), 'utf8')).toContain('Scout INFRA_ERROR');
  });

  it('ends stuck with a stuck report when the Editor never gives a usable answer (4.13), like a hard stop', async () => {
    const { repo, dataDir } = setup();
    const refusals = Array.from({ length: 12 }, (_, index) => ({
      role: 'editor',
      json: { status: 'error', reason: `refusal ${index + 1}: the file is too long to rewrite` },
    }));
    const { state, runDir } = await run(repo, dataDir, [brief, ...scoutRound(1), ...refusals]);
    expect(state.result).toMatchObject({ status: 'stuck', exit_code: 1 });
    expect(state.result?.reason).toContain('T1 failed after 12 attempt(s)');
    const stuck = fs.readFileSync(path.join(runDir, 'stuck-report.md'), 'utf8');
    expect(stuck).toMatch(/### 5\. DECLINED \(T1\)/);
    expect(stuck).toContain('refusal 12: the file is too long to rewrite');
    expect(stuck).toContain('round 1: median never sorts');
  });

  const retainedDirs = (runDir: string) =>
    [...fs.readFileSync(path.join(runDir, 'stuck-report.md'), 'utf8').matchAll(/^- (\/.+)$/gm)].map(
      (match) => match[1] ?? '',
    );
  const quickStop = (config: RunConfig) => {
    config.limits.hard_stop_verify_loops = 2;
    config.limits.replan_after_failures = 0;
  };

  it("releases a stuck run's artifacts when a person fixes it and resumes it to green (4.14)", async () => {
    const { repo, dataDir } = setup();
    const { state, runDir, env } = await run(
      repo,
      dataDir,
      [brief, ...scoutRound(1), entry.editor(wrongTry(1)), entry.editor(wrongTry(2))],
      quickStop,
    );
    expect(state.result).toMatchObject({ status: 'stuck', reason: 'hard stop: 2 verify loops without green' });
    const kept = retainedDirs(runDir);
    expect(kept.length).toBeGreaterThan(0);
    for (const dir of kept) expect(fs.readdirSync(dir)).toContain('RETAINED.json');
    // The person's fix, committed on the run branch in the run's work tree.
    const workDir = state.workspace?.workDir ?? '';
    fs.writeFileSync(path.join(workDir, 'src', 'stats.js'), STATS.fixed);
    repo.git('-C', workDir, 'commit', '--quiet', '-am', 'median: sort a copy (by hand)');
    const fixedHead = repo.git('-C', workDir, 'rev-parse', 'HEAD');
    const resumed = await resumeRun(env, { repoRoot: repo.dir, runId: state.run_id });
    expect(resumed.result).toMatchObject({ status: 'complete', exit_code: 0 });
    expect(resumed.head).toBe(fixedHead);
    for (const dir of kept) expect(fs.readdirSync(dir)).not.toContain('RETAINED.json');
    const log = readLog(path.join(runDir, 'log.jsonl'));
    expect(log.find((event) => event.type === 'run_resumed')?.data).toMatchObject({
      previous_status: 'stuck',
      phase: 'verifying',
    });
    expect(log.find((event) => event.type === 'artifacts_released')?.data.dirs).toEqual(kept);
  });

  it('resumed but still red, a stuck run is stuck again at once (the total verify counter resets only on green)', async () => {
    const { repo, dataDir } = setup();
    const { state, env } = await run(
      repo,
      dataDir,
      [brief, ...scoutRound(1), entry.editor(wrongTry(1)), entry.editor(wrongTry(2))],
      quickStop,
    );
    const again = await resumeRun(env, { repoRoot: repo.dir, runId: state.run_id });
    expect(again.result).toMatchObject({ status: 'stuck', reason: 'hard stop: 3 verify loops without green' });
  });

  it.each(['undo', 'merge'] as const)(
    "releases a stuck run's artifacts when the run is resolved by %s (4.14)",
    async (resolution) => {
      const { repo, dataDir } = setup();
      const { state, runDir, env } = await run(
        repo,
        dataDir,
        [brief, ...scoutRound(1), entry.editor(wrongTry(1)), entry.editor(wrongTry(2))],
        quickStop,
      );
      const kept = retainedDirs(runDir);
      expect(kept.length).toBeGreaterThan(0);
      await new RunOperations(env.deps, env.artifactRoot, () => false)[resolution](repo.dir, state.run_id);
      for (const dir of kept) expect(fs.readdirSync(dir)).not.toContain('RETAINED.json');
      expect(readLog(path.join(runDir, 'log.jsonl')).at(-1)).toMatchObject({
        type: 'artifacts_released',
        data: { dirs: kept },
      });
    },
  );
});
