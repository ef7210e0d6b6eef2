/** Types for scripts/cliBuild.mjs (plain Node, imported by bin/lathe.mjs at every start). */
export const ROOT: string;
export const BUNDLE_NAME: string;
export const MANIFEST_NAME: string;
export function defaultOutDir(root?: string): string;
export function staleReason(root?: string, outDir?: string): string | null;
export function buildCli(options?: { root?: string; outDir?: string }): Promise<{ bundle: string; chunks: string[]; inputs: number }>;
export function ensureCli(options?: { root?: string; outDir?: string; log?: (line: string) => void }): Promise<string>;
