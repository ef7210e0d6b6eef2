import path from 'node:path';

/** A place in a file, as the stack frames of JS, Python, Go and Rust name it. */
const FRAME_PATTERNS: RegExp[] = [
  // JS: `at fn (file:///repo/test/a.js:5:3)`, `at /repo/test/a.js:5:3`, vitest's `❯ test/a.test.ts:36:41`
  // and ava's `› test/a.test.js:3:39`
  /(?:\bat |❯ |› )(?:.*?\()?(?:file:\/\/)?([^\s()'"]+?):(\d+):(\d+)\)?\s*$/,
  // node's TAP YAML stack lists frames without `at`: `TestContext.<anonymous> (file:///repo/a.mjs:6:45)`;
  // node-tap's, relative to the repository: `Test.<anonymous> (test/a.test.js:5:51)`
  /^\s+\S.* \((?:file:\/\/)?(\/[^\s()]+|[^\s()/][^\s()]*\.[cm]?[jt]sx?):(\d+):(\d+)\)\s*$/,
  // Python traceback: `File "/repo/pkg/mod.py", line 12, in fn`
  /File "([^"]+)", line (\d+)/,
  // pytest's closing line of a failure: `tests/test_a.py:13: AssertionError`
  /^([^\s:]+\.py):(\d+): /,
  // Rust: `panicked at src/lib.rs:11:35:` and a backtrace's `at ./src/lib.rs:13:20`
  /(?:panicked at |^\s+at )([^\s:]+\.rs):(\d+):(\d+)/,
  // Go: `    add_test.go:15: message` and a panic's `\t/repo/add_test.go:22 +0x27`
  /^\s*([^\s:]+\.go):(\d+)(?::| \+0x)/,
  // TAP/YAML location: `location: '/repo/test/a.mjs:6:5'`
  /^\s*(?:location|at): '?(?:file:\/\/)?([^\s'()]+?):(\d+):(\d+)'?\s*$/,
];

const OUTSIDE =
  /(^|\/)(node_modules|site-packages|dist-packages|\.cargo|\.rustup|rustc)\/|^(node|internal|bun):|^<|^\/usr\/(lib|local\/lib)\/|^\/rustc\//;

/**
 * `file:line[:col]` for a frame inside the repository, relative to it; null for runtime, dependency
 * and other outside frames. A relative path is taken as the repository's own.
 */
export function repoPlace(
  file: string,
  line: string,
  column: string | undefined,
  repoDir: string | null,
): string | null {
  let relative = file;
  if (path.isAbsolute(file)) {
    if (!repoDir) return null;
    relative = path.relative(repoDir, file);
    if (relative.startsWith('..') || path.isAbsolute(relative)) return null;
  }
  relative = relative.replace(/^\.\//, '');
  if (!relative || OUTSIDE.test(relative)) return null;
  return column ? `${relative}:${line}:${column}` : `${relative}:${line}`;
}

/** Stack frames inside the repository, in order, each once: `test/a.js:5:3 (at Context.<anonymous>)`. */
export function repoFrames(detail: string, repoDir: string | null, max = 5): string[] {
  const found: string[] = [];
  for (const line of detail.split('\n')) {
    for (const pattern of FRAME_PATTERNS) {
      const match = pattern.exec(line);
      if (!match) continue;
      const place = repoPlace(match[1] as string, match[2] as string, match[3], repoDir);
      if (place && !found.includes(place)) found.push(place);
      break;
    }
    if (found.length >= max) break;
  }
  return found;
}
