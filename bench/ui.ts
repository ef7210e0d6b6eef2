/**
 * Window bench: `npx electron-vite build && npx tsx bench/ui.ts`. Writes bench/results/ui.json.
 * First paint of a run view deep link (a 10,000-event log and a 5,000-line file in the diff), in
 * Debian's Chromium against the web host, from navigation start to the run view's `data-run-view-ready`
 * mark (both the virtualized timeline and the diff's rows painted; the diff shows the core's line diff
 * first and Monaco replaces it when ready, timed apart). Median of 5 loads.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';
import type { Handlers } from '../shared/contract/api';
import { LatheError } from '../shared/errors';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test-support/e2e/chromium';
import { EventBus } from '../electron/core/runs/eventBus';
import { createCore } from '../electron/core/api/coreHandlers';
import { sourceAppRoot } from '../electron/core/appRoot';
import { startWebHost, type WebHost } from '../electron/core/host/webHost';
import { figure, report, type Figure } from './lib/results';
import { generateRun, type GeneratedRun } from './ui/generateRun';

const EVENTS = Number(process.env.BENCH_UI_EVENTS ?? 10_000);
const DIFF_LINES = Number(process.env.BENCH_UI_DIFF_LINES ?? 5_000);
const LOADS = Number(process.env.BENCH_UI_LOADS ?? 5);
const here = path.dirname(fileURLToPath(import.meta.url));

/** The page's paint marks (run in the page; this project's TypeScript has no DOM library). */
function readMarks(): {
  ready: number;
  timeline: number;
  diff: number;
  domContentLoaded: number;
  logRead: number;
  viewBuilt: number;
  diffRead: number;
  editorCreated: number;
  diffComputed: number;
  heading: string;
  diffText: string;
} {
  const page = globalThis as unknown as {
    document: {
      documentElement: { dataset: Record<string, string | undefined> };
      querySelector(selector: string): { textContent: string | null } | null;
    };
    performance: {
      getEntriesByType(type: string): { domContentLoadedEventEnd?: number }[];
      getEntriesByName(name: string): { startTime: number }[];
    };
  };
  // No named inner functions: tsx would wrap them in a helper the page does not have.
  const [logRead, viewBuilt, diffRead, editorCreated, diffComputed] = [
    'run-log-read',
    'run-view-built',
    'diff-read',
    'diff-editor-created',
    'diff-computed',
  ].map((name) => page.performance.getEntriesByName(`lathe:${name}`)[0]?.startTime ?? Number.NaN);
  const data = page.document.documentElement.dataset;
  return {
    ready: Number(data.runViewReady),
    timeline: Number(data.timelinePaintedAt),
    diff: Number(data.diffPaintedAt),
    domContentLoaded: page.performance.getEntriesByType('navigation')[0]?.domContentLoadedEventEnd ?? 0,
    logRead: logRead ?? Number.NaN,
    viewBuilt: viewBuilt ?? Number.NaN,
    diffRead: diffRead ?? Number.NaN,
    editorCreated: editorCreated ?? Number.NaN,
    diffComputed: diffComputed ?? Number.NaN,
    heading: page.document.querySelector('#timeline-heading')?.textContent ?? '',
    diffText:
      page.document.querySelector('[data-testid="diff-editor"][data-path="src/big.js"][data-diff-ready]')
        ?.textContent ?? '',
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

const round = (value: number) => Math.round(value * 10) / 10;

type Marks = ReturnType<typeof readMarks>;

/** The core behind a web host on a free port, with its own data folder and no dialogs. */
async function startBenchHost(rendererDir: string, dataDir: string): Promise<WebHost> {
  const events = new EventBus();
  const core = createCore({ mode: 'browser', dataDir, events, appRoot: sourceAppRoot() });
  const handlers: Handlers = {
    ...core.handlers,
    'dialog/openFolder': async () => {
      throw new LatheError('UNSUPPORTED', 'no dialogs in the bench');
    },
  };
  return startWebHost({ port: 0, rendererDir, handlers, events });
}

/** The run view's deep link: the run's changes tab, the big file open. */
function runViewLink(hostUrl: string, run: GeneratedRun): string {
  const link = new URL(hostUrl);
  link.searchParams.set('repo', run.repo);
  link.searchParams.set('run', run.runId);
  link.searchParams.set('tab', 'changes');
  link.searchParams.set('file', 'src/big.js');
  return link.toString();
}

/** One load of the deep link in a new page: its paint marks, once the timeline and the diff are checked. */
async function loadRunView(context: BrowserContext, link: string): Promise<Marks> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(link);
  await page.waitForSelector('html[data-run-view-ready]', { timeout: 60_000 });
  const marks = await page.evaluate(readMarks);
  if (!marks.heading.includes(`${EVENTS} events`))
    throw new Error(`the timeline shows "${marks.heading}", not ${EVENTS} events`);
  // Painted means the file's lines are on screen, on both sides, not an empty box (the rows or Monaco, if it was quicker than this check).
  if ((marks.diffText.match(/export const value1 = compute\(1\);/g) ?? []).length < 2)
    throw new Error(`the diff shows "${marks.diffText.slice(0, 200)}", not the file's first line on both sides`);
  // Monaco's own moments are read once it has replaced the plain rows.
  await page.waitForSelector('[data-testid="diff-editor"][data-editor="monaco"]', { timeout: 60_000 });
  const monaco = await page.evaluate(readMarks);
  marks.editorCreated = monaco.editorCreated;
  marks.diffComputed = monaco.diffComputed;
  if (problems.length > 0) throw new Error(`page errors: ${problems.join('; ')}`);
  await page.close();
  return marks;
}

/** The bench's figures: medians over the measured loads, and the slowest first paint. */
function runViewFigures(loads: Marks[]): Figure[] {
  const ready = median(loads.map((entry) => entry.ready));
  return [
    figure(
      'run_view_first_paint_ms',
      `run view first paint (${EVENTS} events, ${DIFF_LINES}-line diff), median of ${LOADS}`,
      round(ready),
      'ms',
      { max: 1000 },
    ),
    figure(
      'timeline_painted_ms',
      'timeline painted (median)',
      round(median(loads.map((entry) => entry.timeline))),
      'ms',
    ),
    figure('diff_painted_ms', 'diff painted (median)', round(median(loads.map((entry) => entry.diff))), 'ms'),
    figure(
      'dom_content_loaded_ms',
      'DOMContentLoaded (median)',
      round(median(loads.map((entry) => entry.domContentLoaded))),
      'ms',
    ),
    figure(
      'run_log_read_ms',
      `run log read over the contract (median)`,
      round(median(loads.map((entry) => entry.logRead))),
      'ms',
    ),
    figure(
      'run_view_reduce_ms',
      'log reduced to the view (median)',
      round(median(loads.map((entry) => entry.viewBuilt - entry.logRead))),
      'ms',
    ),
    figure(
      'diff_read_ms',
      'diff read over the contract (median)',
      round(median(loads.map((entry) => entry.diffRead))),
      'ms',
    ),
    figure(
      'diff_editor_created_ms',
      'Monaco diff editor created, after the first paint (median)',
      round(median(loads.map((entry) => entry.editorCreated))),
      'ms',
    ),
    figure(
      'diff_computed_ms',
      'Monaco diff shown in place of the rows (median)',
      round(median(loads.map((entry) => entry.diffComputed))),
      'ms',
    ),
    figure(
      'run_view_worst_ms',
      'run view first paint, slowest load',
      round(Math.max(...loads.map((entry) => entry.ready))),
      'ms',
    ),
  ];
}

async function main(): Promise<void> {
  const rendererDir = path.join(here, '..', 'out', 'renderer');
  if (!fs.existsSync(path.join(rendererDir, 'index.html')))
    throw new Error('out/renderer is missing: run `npx electron-vite build` first');
  const run = generateRun(EVENTS, DIFF_LINES);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-bench-home-'));
  const host = await startBenchHost(rendererDir, dataDir);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  try {
    const link = runViewLink(host.url, run);
    const loads: Marks[] = [];
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    for (let load = 0; load < LOADS + 1; load++) {
      const marks = await loadRunView(context, link);
      // The first load warms Chromium's own caches (the host sends no-store, so assets are fetched each time).
      if (load > 0) loads.push({ ...marks, diffText: `${marks.diffText.length} characters checked` });
    }
    report({
      bench: 'ui',
      figures: runViewFigures(loads),
      details: { loads, events: run.events, diffLines: run.diffLines, chromium: browser.version() },
    });
  } finally {
    await browser.close();
    await host.close();
    run.remove();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
