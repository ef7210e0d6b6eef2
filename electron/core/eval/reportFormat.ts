import { LAPTOP_PROFILES } from '../../../shared/engine/laptopTime';
import type { EvalReport, EvalTaskResult, RoleQuality } from './reportSchema';

export function formatDurationMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

export function formatTokens(count: number): string {
  if (count >= 1e6) return `${(count / 1e6).toFixed(1)}M`;
  if (count >= 1e3) return `${(count / 1e3).toFixed(1)}k`;
  return String(count);
}

export function formatRate(value: number | null): string {
  return value === null ? '-' : `${Math.round(value * 100)}%`;
}

/** One task's well-formed rate over all its roles. */
export function taskWellFormed(task: EvalTaskResult): number | null {
  const roles = Object.values(task.roles);
  const good = roles.reduce((sum, role) => sum + role.well_formed, 0);
  const bad = roles.reduce((sum, role) => sum + role.malformed, 0);
  return good + bad === 0 ? null : good / (good + bad);
}

export function outcomeLabel(task: EvalTaskResult): string {
  if (task.outcome === 'error') return `error: ${task.error?.code ?? 'unknown'}`;
  return task.outcome;
}

const HEADER = [
  'TASK',
  'LANG',
  'KIND',
  'RESULT',
  'RUN',
  'ATTEMPTS',
  'REPLANS',
  'PROMPT',
  'CACHED',
  'PREFILL',
  'GENERATED',
  'LAPTOP-MIN',
  'WELL-FORMED',
  'TIME',
];

/** Model minutes on each reference laptop, in LAPTOP_PROFILES order: `12.3/2.8`. */
export function laptopCell(minutes: Record<string, number>): string {
  const known = LAPTOP_PROFILES.filter((profile) => minutes[profile.id] !== undefined);
  return known.length === 0 ? '-' : known.map((profile) => (minutes[profile.id] as number).toFixed(1)).join('/');
}

/** What the LAPTOP-MIN column's figures are, in order. */
export function laptopLegend(): string {
  return `laptop minutes (model time from the token counts, docs/eval.md): ${LAPTOP_PROFILES.map((profile) => profile.label).join(' / ')}`;
}

function taskRow(task: EvalTaskResult): string[] {
  const mark = task.tokens.estimated ? '~' : '';
  return [
    task.id,
    task.language === 'python' ? 'py' : 'js',
    task.kind,
    outcomeLabel(task),
    task.run?.status ?? '-',
    String(task.attempts),
    String(task.replans),
    `${mark}${formatTokens(task.tokens.prompt)}`,
    `${mark}${formatTokens(task.tokens.cached)}`,
    `${mark}${formatTokens(task.tokens.prefill)}`,
    `${mark}${formatTokens(task.tokens.generated)}`,
    laptopCell(task.laptop_minutes),
    formatRate(taskWellFormed(task)),
    formatDurationMs(task.wall_ms),
  ];
}

function medianLine(summary: EvalReport['summary']): string[] {
  const median = summary.median_tokens;
  if (!median) return [];
  const estimated = median.estimated ? ' (~ estimated: oracle/replay counts)' : '';
  return [
    `median per task: ${formatTokens(median.prompt)} prompt, ${formatTokens(median.cached)} cached, ${formatTokens(median.prefill)} prefill, ${formatTokens(median.generated)} generated, ${median.calls} calls${estimated} · laptop minutes ${laptopCell(summary.median_laptop_minutes)}`,
    laptopLegend(),
  ];
}

function alignedTable(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const format = (row: string[]) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [format(header), ...rows.map(format)];
}

export function roleSummary(roles: Record<string, RoleQuality>): string {
  return Object.entries(roles)
    .map(
      ([role, quality]) =>
        `${role} ${formatRate(quality.well_formed_rate)} (${quality.well_formed}/${quality.well_formed + quality.malformed})`,
    )
    .join(', ');
}

/** The terminal table: one row per task, then the totals. */
export function formatSummaryTable(report: EvalReport): string[] {
  const { summary } = report;
  const byLanguage = Object.entries(summary.by_language).map(
    ([language, group]) => `${language} ${group.solved}/${group.tasks}`,
  );
  const byKind = Object.entries(summary.by_kind).map(([kind, group]) => `${kind} ${group.solved}/${group.tasks}`);
  return [
    ...alignedTable(HEADER, report.tasks.map(taskRow)),
    '',
    `solved ${summary.solved}/${summary.tasks}${summary.solve_rate === null ? '' : ` (${formatRate(summary.solve_rate)} of judged tasks)`} · ${[...byLanguage, ...byKind].join(' · ')}`,
    ...(summary.errors + summary.interrupted > 0
      ? [`not judged: ${summary.errors} error(s), ${summary.interrupted} interrupted`]
      : []),
    `well-formed: ${roleSummary(summary.roles) || 'no model answers'}`,
    ...medianLine(summary),
    `tokens ${formatTokens(summary.tokens.total)} (${formatTokens(summary.tokens.prompt)} prompt of which ${formatTokens(summary.tokens.cached)} cached, ${formatTokens(summary.tokens.completion)} completion) · attempts ${summary.attempts} · replans ${summary.replans} · ${formatDurationMs(summary.elapsed_ms)} elapsed (median task ${formatDurationMs(summary.task_wall_ms.median)})`,
  ];
}

const escapeCell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function markdownTable(header: string[], rows: string[][]): string[] {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(escapeCell).join(' | ')} |`),
  ];
}

/** eval-report.md: the same figures as the JSON, for reading and pasting into an issue. */
export function renderMarkdownReport(report: EvalReport): string {
  const { summary, settings, machine } = report;
  const models = settings.model ? `\`${settings.model}\`` : 'per role';
  const roleModels = Object.entries(settings.role_models).map(([role, spec]) => `${role}: \`${spec}\``);
  const lines = [
    `# Lathe eval — ${settings.workflow}, ${models}`,
    '',
    `${report.interrupted ? '**Interrupted: the figures cover only the tasks that finished.** ' : ''}Lathe ${report.lathe_version}, ${report.started_at} → ${report.finished_at}.`,
    '',
    `- Solved: **${summary.solved}/${summary.tasks}**${summary.solve_rate === null ? '' : ` (${formatRate(summary.solve_rate)} of judged tasks)`}; errors ${summary.errors}, interrupted ${summary.interrupted}`,
    `- By language: ${Object.entries(summary.by_language)
      .map(([language, group]) => `${language} ${group.solved}/${group.tasks}`)
      .join(', ')}`,
    `- By kind: ${Object.entries(summary.by_kind)
      .map(([kind, group]) => `${kind} ${group.solved}/${group.tasks}`)
      .join(', ')}`,
    `- Tokens: ${summary.tokens.total} (${summary.tokens.prompt} prompt of which ${summary.tokens.cached} cached and ${summary.tokens.prefill} new prefill, ${summary.tokens.completion} completion); attempts ${summary.attempts}; replans ${summary.replans}`,
    ...medianLine(summary).map((line) => `- ${line.charAt(0).toUpperCase()}${line.slice(1)}`),
    `- Time: ${formatDurationMs(summary.elapsed_ms)} elapsed with ${settings.jobs} job(s); per task median ${formatDurationMs(summary.task_wall_ms.median)}, max ${formatDurationMs(summary.task_wall_ms.max)}`,
    ...(roleModels.length > 0 ? [`- Role models: ${roleModels.join(', ')}`] : []),
    `- Machine: ${machine.platform}-${machine.arch}, ${machine.cpu_model}, ${machine.physical_cores} physical cores, ${(machine.total_memory_bytes / 1024 ** 3).toFixed(1)} GiB RAM, Node ${machine.node}`,
    '',
    '## Well-formed output per role',
    '',
    ...markdownTable(
      [
        'role',
        'calls',
        'well-formed',
        'malformed',
        'errors',
        'rate',
        'prompt tokens',
        'completion tokens',
        'tokens/s',
        'steered tokens',
        'prompt lookup accepted',
      ],
      Object.entries(summary.roles).map(([role, quality]) => [
        role,
        String(quality.calls),
        String(quality.well_formed),
        String(quality.malformed),
        String(quality.errors),
        formatRate(quality.well_formed_rate),
        String(quality.prompt_tokens),
        String(quality.completion_tokens),
        quality.tokens_per_second === null ? '—' : String(quality.tokens_per_second),
        String(quality.steered_tokens),
        quality.prompt_lookup
          ? `${formatRate(quality.prompt_lookup.acceptance_rate)} (${quality.prompt_lookup.validated}/${quality.prompt_lookup.validated + quality.prompt_lookup.refuted})`
          : 'off',
      ]),
    ),
    '',
    '## Tasks',
    '',
    ...markdownTable(
      HEADER.map((title) => title.toLowerCase()),
      report.tasks.map(taskRow),
    ),
    '',
    ...report.tasks.filter((task) => !task.solved).flatMap((task) => unsolvedDetail(task)),
    'How to read this report and choose a model: docs/eval.md in the Lathe repository.',
    '',
  ];
  return lines.join('\n');
}

function unsolvedDetail(task: EvalTaskResult): string[] {
  const detail = [
    task.run ? `run ${task.run.status}${task.run.reason ? `: ${task.run.reason}` : ''}` : null,
    task.hidden_tests?.first_failure
      ? `first hidden failure: \`${task.hidden_tests.first_failure.test_id}\` — ${task.hidden_tests.first_failure.message.split('\n')[0]?.slice(0, 200)}`
      : null,
    task.error ? `${task.error.code}: ${task.error.message}` : null,
    task.files.run_dir ? `log: \`${task.files.run_dir}/log.jsonl\`` : null,
  ].filter((line): line is string => line !== null);
  return [`### ${task.id} (${outcomeLabel(task)})`, '', ...detail.map((line) => `- ${escapeCell(line)}`), ''];
}
