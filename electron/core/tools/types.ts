// The read-only tools' and the shell's contract.

export interface RepoSummaryOptions {
  maxEntries?: number;
  maxBytes?: number;
}

export interface SearchHit {
  path: string;
  line: number;
  text: string;
}

export interface ReadOnlyTools {
  /** `unreadable`: folders that exist but could not be listed, skipped as `git status` skips them. */
  listFiles(options?: {
    under?: string;
    limit?: number;
  }): Promise<{ files: string[]; truncated: boolean; unreadable: string[] }>;
  readFile(path: string, options?: { maxBytes?: number }): Promise<{ content: string; truncated: boolean }>;
  searchText(
    query: string,
    options?: { regex?: boolean; maxResults?: number; under?: string },
  ): Promise<{ hits: SearchHit[]; truncated: boolean }>;
  /** Seed 000: relative paths with a brief note each, bounded, ranked for large repos. */
  repoSummary(options?: RepoSummaryOptions): Promise<string>;
}

export interface ShellResult {
  argv: string[];
  exitCode: number | null;
  output: string;
  timedOut: boolean;
  durationMs: number;
}
