import fs from 'node:fs';
import path from 'node:path';
import { estimateTokens } from '../../electron/core/llm/results';

const CODE = /\.(py|js|mjs|cjs|ts|tsx|go|rs|java|rb|c|h|cpp|cs|php|sh)$/;

/**
 * How far the 4-characters estimate is from a tokenizer on real code: per source file of the given
 * checkouts (git-tracked, test files included, ≤ 256 KB), real tokens ÷ estimate, as quantiles.
 */
export function estimateError(
  dirs: readonly string[],
  count: (text: string) => number,
): { files: number; ratio_p50: number; ratio_p95: number; ratio_max: number; chars_per_token_p50: number } {
  const ratios: number[] = [];
  const charsPerToken: number[] = [];
  const seen = new Set<string>();
  for (const dir of dirs) {
    if (!fs.existsSync(dir)) continue;
    const repo = path.basename(dir).replace(/-[0-9a-f]{7}-[0-9a-f]{8}$/, '');
    if (seen.has(repo)) continue;
    seen.add(repo);
    for (const file of walk(dir)) {
      const text = fs.readFileSync(file, 'utf8');
      if (text.length < 200) continue;
      const tokens = count(text);
      ratios.push(tokens / estimateTokens(text));
      charsPerToken.push(text.length / tokens);
    }
  }
  const q = (values: number[], at: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return (
      Math.round((sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(at * sorted.length) - 1))] ?? 0) * 100) / 100
    );
  };
  return {
    files: ratios.length,
    ratio_p50: q(ratios, 0.5),
    ratio_p95: q(ratios, 0.95),
    ratio_max: q(ratios, 1),
    chars_per_token_p50: q(charsPerToken, 0.5),
  };
}

function* walk(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (CODE.test(entry.name) && fs.statSync(full).size <= 256 * 1024) yield full;
  }
}
