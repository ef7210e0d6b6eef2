// `npm run bench:llm` (npx tsx bench/llm.ts [--threads N] [--runs N] [--tokens N] [--model PATH.gguf]):
// the inference layer on this CPU with a 0.5B-Qwen2-shaped Q8_0 model of deterministic random
// weights, or with a real model (--model). Prints a table and writes bench/results/llm.json, whose
// `rates` are this machine's figures for the laptop-time model (docs/eval.md).
// Prompt-lookup decoding is measured only with --model: random weights never copy their input.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { getLlama, LlamaLogLevel, type ChatHistoryItem } from 'node-llama-cpp';
import { z } from 'zod';
import { createModelRouter, grammarForSchema, physicalCoreCount, type LlmEvent } from '../electron/core/llm';
import { AgentErrorSchema } from '../shared/schemas/agents/agentError';
import { PlanSchema } from '../shared/schemas/agents/planner';
import { ensureBenchModel } from './llm/benchModel';
import { compareDecode } from './llm/decodeComparison';
import { comparePromptLookup } from './llm/promptLookup';
import { spreadText } from './lib/stats';
import { measurePromptEval, promptOfTokens, type BenchGrammar } from './llm/measure';
import { parseGbnf } from '../electron/core/llm/grammar/gbnfParser';
import { LAPTOP_PROFILES, MachineRatesSchema, type MachineRates } from '../shared/engine/laptopTime';

const { values } = parseArgs({
  options: {
    threads: { type: 'string' },
    runs: { type: 'string' },
    tokens: { type: 'string' },
    model: { type: 'string' },
    'compare-steering': { type: 'boolean' },
  },
});
const threads = values.threads ? Number(values.threads) : physicalCoreCount();
// 20 interleaved rounds per schema: a round's ratio varies by about ±10% on a shared 2-core machine, so
// the median of 10 still moved by ±4% from run to run — as much as the margin it is judged on.
const runs = values.runs ? Number(values.runs) : 20;
const decodeTokens = values.tokens ? Number(values.tokens) : 64;
const log = (line: string) => process.stderr.write(`${line}\n`);

const realModel = values.model ? path.resolve(values.model) : null;
const { modelPath, writtenMs } = realModel ? { modelPath: realModel, writtenMs: null } : ensureBenchModel(log);
const llama = await getLlama({ build: 'never', gpu: 'auto', logLevel: LlamaLogLevel.error });

log('loading…');
const loadStarted = performance.now();
const model = await llama.loadModel({ modelPath, gpuLayers: llama.gpu === false ? 0 : 'auto' });
const loadMs = performance.now() - loadStarted;
const context = await model.createContext({ contextSize: 4096, sequences: 2, threads });
const repoContext = promptOfTokens(model, 1000, 'repo');

log('prompt evaluation (1k tokens)…');
await measurePromptEval(context, model, 64); // warm-up: pages the weights in
const promptRuns = [];
for (let i = 0; i < 3; i++) promptRuns.push(await measurePromptEval(context, model, 1024));
// Fastest run: the machine is shared, so slower runs mostly measure the neighbours.
const promptTokensPerSecond = Math.max(...promptRuns.map((run) => run.tokens / run.seconds));

log(`generation, unconstrained and two role schemas' grammars, ${runs} interleaved rounds × ${decodeTokens} tokens…`);
const PlannerOutput = z.union([PlanSchema, AgentErrorSchema]);
// A coder-style answer: one file's full content, the bulk of the tokens a run generates.
const EditOutput = z.object({ path: z.string().min(1).max(300), content: z.string().max(200_000) });
const grammarOf = async (schema: z.ZodType, steer = true): Promise<BenchGrammar> => {
  const { gbnf } = grammarForSchema(schema);
  const parsed = parseGbnf(gbnf);
  return {
    grammar: await llama.createGrammar({ grammar: gbnf, trimWhitespaceSuffix: true }),
    parsed: parsed.ok ? parsed.grammar : null,
    steer,
  };
};
const history =
  (task: string) =>
  (i: number): ChatHistoryItem[] => [
    { type: 'system', text: 'You are a Lathe agent. Answer with JSON only.' },
    { type: 'user', text: `${task} (request ${i})` },
    { type: 'model', response: [] },
  ];
// --compare-steering adds each schema without forced-token steering, for the before/after of decision 75.
const grammars: Record<string, BenchGrammar> = {
  plan: await grammarOf(PlannerOutput),
  edit: await grammarOf(EditOutput),
};
if (values['compare-steering'])
  Object.assign(grammars, {
    'plan-unsteered': await grammarOf(PlannerOutput, false),
    'edit-unsteered': await grammarOf(EditOutput, false),
  });
const decode = await compareDecode(context, grammars, {
  rounds: runs,
  maxTokens: decodeTokens,
  history: history('Write src/stats.py with a median function, as JSON.'),
});
const plan = decode.schemas.plan;
const edit = decode.schemas.edit;
if (!plan || !edit) throw new Error('decode comparison lost a schema');
let promptLookup: Awaited<ReturnType<typeof comparePromptLookup>> | null = null;
if (realModel) {
  log(`prompt-lookup decoding on a copy-heavy answer, ${runs} interleaved rounds…`);
  promptLookup = await comparePromptLookup(
    context,
    fs.readFileSync(
      path.join(import.meta.dirname, '..', 'resources', 'examples', 'py-stats', 'src', 'stats.py'),
      'utf8',
    ),
    { rounds: runs, maxTokens: 256 },
  );
}
await context.dispose();
await model.dispose();

log('time to first token through the router, cold vs reused prefix…');
const events: LlmEvent[] = [];
const router = createModelRouter({
  roles: { planner: { model: `llama:${modelPath}`, maxTokens: 8, contextSize: 4096 } },
  threads,
  onEvent: (event) => {
    if (event.type !== 'token') events.push(event);
  },
});
const Tiny = z.object({ ok: z.boolean() });
const ask = (question: string) => [
  { role: 'system' as const, content: `You are the Planner.\n${repoContext}` },
  { role: 'user' as const, content: question },
];
const cold = await router.generate({
  role: 'planner',
  messages: ask('First question: what should change?'),
  schema: Tiny,
});
const warm = await router.generate({
  role: 'planner',
  messages: ask('Second question: which file first?'),
  schema: Tiny,
});
await router.dispose();
if (!cold.usage || !warm.usage) throw new Error(`router call failed: ${JSON.stringify(cold.ok ? warm : cold)}`);

// The laptop-time model's rates for this machine and model (docs/eval.md, "Laptop time"): what a cached
// token still costs is the reused call's time to first token less its new tokens' prefill, per cached token.
const warmPrefillMs = ((warm.usage.promptTokens - warm.usage.reusedPrefixTokens) / promptTokensPerSecond) * 1000;
const rates: MachineRates = MachineRatesSchema.parse({
  id: 'this-machine',
  label: `${os.cpus()[0]?.model.trim() ?? 'this machine'}, ${threads} threads, ${path.basename(modelPath)}`,
  prefill_tokens_per_second: round(promptTokensPerSecond),
  cached_token_ms: round(
    Math.max(0, warm.usage.timeToFirstTokenMs - warmPrefillMs) / Math.max(1, warm.usage.reusedPrefixTokens),
    4,
  ),
  generation_tokens_per_second: decode.unconstrainedTokensPerSecond.median,
  source: `npm run bench:llm${realModel ? ' -- --model PATH' : ''} on this machine`,
});

const results = {
  machine: {
    physicalCores: physicalCoreCount(),
    logicalCores: os.availableParallelism(),
    cpu: os.cpus()[0]?.model ?? 'unknown',
    totalMemoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    gpu: llama.gpu,
    node: process.version,
    llamaCpp: llama.llamaCppRelease.release,
  },
  model: realModel
    ? { path: modelPath, shape: 'a real model (--model)', sizeBytes: fs.statSync(modelPath).size, writtenMs }
    : {
        path: modelPath,
        shape: 'Qwen2-0.5B (vocab 151936, 24 layers, 896 wide), Q8_0, deterministic random weights',
        sizeBytes: fs.statSync(modelPath).size,
        writtenMs,
      },
  threads,
  runs,
  loadMs: Math.round(loadMs),
  promptTokensPerSecond: round(promptTokensPerSecond),
  generationTokensPerSecond: decode.unconstrainedTokensPerSecond.median,
  generation: decode.unconstrainedTokensPerSecond,
  constrained: {
    rounds: decode.rounds,
    plan: {
      schema: 'Plan | AgentError (structure-heavy)',
      tokensPerSecond: plan.constrainedTokensPerSecond.median,
      ratio: plan.ratio.median,
      ratioSpread: plan.ratio,
      tokensPerSecondSpread: plan.constrainedTokensPerSecond,
      tokens: plan.constrainedTokens,
      steeredTokens: plan.steeredTokens,
    },
    edit: {
      schema: '{path, content} (content-heavy)',
      tokensPerSecond: edit.constrainedTokensPerSecond.median,
      ratio: edit.ratio.median,
      ratioSpread: edit.ratio,
      tokensPerSecondSpread: edit.constrainedTokensPerSecond,
      tokens: edit.constrainedTokens,
      steeredTokens: edit.steeredTokens,
    },
    unsteered: Object.fromEntries(
      Object.entries(decode.schemas)
        .filter(([name]) => name.endsWith('-unsteered'))
        .map(([name, entry]) => [name, { ratio: entry.ratio.median, ratioSpread: entry.ratio }]),
    ),
  },
  promptLookup: promptLookup
    ? { measured: true, ...promptLookup }
    : {
        measured: false,
        reason:
          'no real model (--model PATH.gguf): a random-weight model never copies its input, so no acceptance rate or speed is claimed',
      },
  ttftColdMs: cold.usage.timeToFirstTokenMs,
  ttftReusedMs: warm.usage.timeToFirstTokenMs,
  ttftRatio: round(warm.usage.timeToFirstTokenMs / Math.max(1, cold.usage.timeToFirstTokenMs), 3),
  promptTokensCold: cold.usage.promptTokens,
  reusedPrefixTokens: warm.usage.reusedPrefixTokens,
  rates,
  peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
  goals: { constrainedRatioAtLeast: 0.9, ttftRatioAtMost: 0.2 },
};

function verdict(pass: boolean): string {
  return pass ? 'PASS' : 'MISS';
}

function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

const rows: Array<[string, string]> = [
  [
    'machine',
    `${results.machine.physicalCores} physical / ${results.machine.logicalCores} logical cores, ${results.machine.cpu}, gpu: ${String(results.machine.gpu)}`,
  ],
  ['threads', String(threads)],
  ['model', `${(results.model.sizeBytes / 1024 ** 2).toFixed(0)} MiB Q8_0, Qwen2-0.5B shape`],
  ['load time', `${results.loadMs} ms`],
  ['prompt eval (1k-token prompt)', `${results.promptTokensPerSecond} tokens/s`],
  [
    'generation, unconstrained',
    `${results.generationTokensPerSecond} tokens/s (${spreadText(decode.unconstrainedTokensPerSecond)})`,
  ],
  [
    'generation, edit-schema grammar',
    `${results.constrained.edit.tokensPerSecond} tokens/s, ratio ${results.constrained.edit.ratio}× (${spreadText(edit.ratio)}; goal ≥ 0.9) ${verdict(results.constrained.edit.ratio >= 0.9)}; ${edit.steeredTokens}/${edit.constrainedTokens} tokens steered`,
  ],
  [
    'generation, plan-schema grammar',
    `${results.constrained.plan.tokensPerSecond} tokens/s, ratio ${results.constrained.plan.ratio}× (${spreadText(plan.ratio)}; goal ≥ 0.9) ${verdict(results.constrained.plan.ratio >= 0.9)}; ${plan.steeredTokens}/${plan.constrainedTokens} tokens steered`,
  ],
  ...Object.entries(decode.schemas)
    .filter(([name]) => name.endsWith('-unsteered'))
    .map(([name, entry]): [string, string] => [
      `generation, ${name}`,
      `ratio ${entry.ratio.median}× (${spreadText(entry.ratio)})`,
    ]),
  [
    'prompt lookup (writer roles)',
    promptLookup
      ? `acceptance ${promptLookup.acceptanceRate}, ${promptLookup.lookupTokensPerSecond.median} vs ${promptLookup.plainTokensPerSecond.median} tokens/s, speedup ${promptLookup.speedup.median}× (${spreadText(promptLookup.speedup)})`
      : 'unmeasured: needs a real model (--model PATH.gguf)',
  ],
  ['TTFT cold (' + results.promptTokensCold + '-token prompt)', `${results.ttftColdMs} ms`],
  ['TTFT reused prefix (' + results.reusedPrefixTokens + ' reused)', `${results.ttftReusedMs} ms`],
  ['reused / cold', `${results.ttftRatio}× (goal ≤ 0.2) ${verdict(results.ttftRatio <= 0.2)}`],
  [
    'laptop-time rates (docs/eval.md)',
    `prefill ${rates.prefill_tokens_per_second} tokens/s, cached ${rates.cached_token_ms} ms/token, generation ${rates.generation_tokens_per_second} tokens/s`,
  ],
  ...LAPTOP_PROFILES.map((profile): [string, string] => [
    `  reference: ${profile.id}`,
    `prefill ${profile.prefill_tokens_per_second} tokens/s, generation ${profile.generation_tokens_per_second} tokens/s (${profile.label})`,
  ]),
  ['peak RSS', `${results.peakRssMiB} MiB`],
];
const width = Math.max(...rows.map(([label]) => label.length));
process.stdout.write(
  `\nLathe inference benchmark\n${rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`).join('\n')}\n\n`,
);
const outFile = path.join(import.meta.dirname, 'results', 'llm.json');
fs.mkdirSync(path.dirname(outFile), { recursive: true });
fs.writeFileSync(outFile, `${JSON.stringify(results, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(results)}\n`);
log(
  `wrote ${path.relative(process.cwd(), outFile)}; router events: ${[...new Set(events.map((event) => event.type))].join(', ')}`,
);
