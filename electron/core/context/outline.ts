import type { RankedFile } from './rank';
import type { FileSymbol } from './symbols';

const MAP_SYMBOLS_PER_FILE = 12;

/** A repo-map entry: the path and line count, then `line: signature` of its best-scored symbols, then its others. */
export function outline(entry: RankedFile): string {
  const best = new Set(
    entry.symbols
      .filter((ranked) => ranked.score > 0)
      .slice(0, MAP_SYMBOLS_PER_FILE)
      .map((ranked) => ranked.symbol),
  );
  const rest = entry.file.symbols.filter((symbol) => symbol.kind !== 'variable' && !best.has(symbol));
  const shown: FileSymbol[] = [...best, ...rest].slice(0, MAP_SYMBOLS_PER_FILE).sort((a, b) => a.start - b.start);
  const more = entry.file.symbols.length - shown.length;
  return [
    `${entry.file.path} (${entry.file.lines} lines)`,
    ...shown.map((symbol) => `  ${symbol.start}: ${symbol.signature}`),
    ...(more > 0 ? [`  … ${more} more`] : []),
  ].join('\n');
}
