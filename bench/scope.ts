/**
 * Hunk scope (issue 26): are the gold patches of the corpus and of the bundled eval suite kept whole
 * (no hunk classed unrelated), and how many generated unrelated changes are caught, per kind? Plus a
 * held-out check on the corpus repositories' own recent fix commits. Usage:
 *   npm run bench:scope -- [--corpus DIR] [--per-kind N] [--history N]
 * Writes bench/results/scope.json; the misses are listed on stdout.
 */
import path from 'node:path';
import { findDefaultCorpus } from '../electron/core/eval/corpus/index';
import { historyScopeCases } from '../test-support/scopeHistory';
import { INJECTION_KINDS } from '../test-support/scopeInjections';
import { corpusScopeCases, evalSuiteScopeCases, scopeFigures } from '../test-support/scopeValidation';
import { figure, report, type Figure } from './lib/results';

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

async function main(): Promise<void> {
  const root = path.resolve(import.meta.dirname, '..');
  const corpusDir = argument('corpus') ?? findDefaultCorpus(root);
  if (!corpusDir)
    throw new Error('no corpus: pass --corpus DIR (a folder with tasks.json and bundles) or set LATHE_CORPUS');
  const started = Date.now();
  const cases = [
    ...(await corpusScopeCases(corpusDir, { perKind: Number(argument('per-kind') ?? 3) })),
    ...(await evalSuiteScopeCases(path.join(root, 'resources', 'eval'))),
  ];
  const history = await historyScopeCases(corpusDir, Number(argument('history') ?? 40));
  const { gold, injected } = scopeFigures(cases);
  const figures: Figure[] = [];
  for (const [key, cell] of Object.entries(gold)) {
    figures.push(figure(`gold_hunks_${key.replace(/\W+/g, '_')}`, `gold hunks (${key})`, cell.hunks, 'hunks'));
    // Only the realistic evidence is held to zero: 'other-files' shows what a file list missing the edited file would do.
    const goal = key.endsWith('other-files') ? undefined : { max: 0 };
    figures.push(
      figure(
        `false_unrelated_${key.replace(/\W+/g, '_')}`,
        `gold hunks classed unrelated (${key})`,
        cell.falseUnrelated,
        'hunks',
        goal,
      ),
    );
  }
  for (const kind of INJECTION_KINDS) {
    const cell = injected[kind] ?? { caught: 0, total: 0 };
    figures.push(
      figure(
        `caught_${kind.replace(/-/g, '_')}`,
        `injected ${kind} caught (${cell.caught}/${cell.total})`,
        cell.total === 0 ? 0 : Math.round((cell.caught / cell.total) * 1000) / 1000,
        'share',
        { min: 0.9 },
      ),
    );
  }
  const historyHunks = history.reduce((sum, item) => sum + item.hunks, 0);
  const historyUnrelated = history.flatMap((item) =>
    item.unrelated.map((hunk) => ({ ...hunk, repo: item.repo, commit: item.commit, subject: item.subject })),
  );
  figures.push(figure('history_commits', 'held-out fix commits', history.length, 'commits'));
  figures.push(
    figure(
      'history_unrelated',
      `held-out hunks classed unrelated (of ${historyHunks})`,
      historyUnrelated.length,
      'hunks',
    ),
  );
  figures.push(figure('seconds', 'time', Math.round((Date.now() - started) / 100) / 10, 's'));
  for (const item of cases) {
    for (const hunk of item.falseUnrelated)
      if (item.mode !== 'other-files')
        process.stdout.write(
          `FALSE UNRELATED ${item.source} ${item.task} ${item.mode}: ${hunk.path}:${hunk.newStart} ${hunk.reason}\n`,
        );
    if (item.injection && !item.caught)
      process.stdout.write(
        `MISSED ${item.task} ${item.injection.kind}: ${item.injection.what} → ${item.injected.map((hunk) => hunk.reason).join(' / ')}\n`,
      );
  }
  for (const hunk of historyUnrelated)
    process.stdout.write(
      `HELD-OUT ${hunk.repo} ${hunk.commit} "${hunk.subject.slice(0, 60)}": ${hunk.path}:${hunk.newStart} ${hunk.reason}\n`,
    );
  report({ bench: 'scope', figures, details: { history_unrelated: historyUnrelated } });
}

await main();
