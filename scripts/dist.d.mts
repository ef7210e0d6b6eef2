/** Types for scripts/dist.mjs (a plain Node script, so `npm run dist` needs no build step). */
export function packageProblems(pkg: { dependencies?: Record<string, string> }, runtimeImports?: readonly string[] | null): { errors: string[]; warnings: string[] };
export function bareImports(code: string): string[];
export function cpuOnlyConfig<T extends { files?: unknown[] }>(config: T): T & { files: unknown[] };
export const PACKAGING_NODE: string;
export function nodeVersionProblem(version: string, args: readonly string[]): string | null;
