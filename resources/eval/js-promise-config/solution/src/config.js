import { readFile } from 'node:fs/promises';

export const DEFAULTS = Object.freeze({ outDir: 'dist', minify: false, targets: ['node20'] });

/** The JSON config file merged over DEFAULTS. */
export async function loadConfig(file) {
  const text = await readFile(file, 'utf8');
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch (parseError) {
    throw new SyntaxError(`${file}: ${parseError.message}`, { cause: parseError });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new SyntaxError(`${file}: the configuration must be a JSON object`);
  }
  return { ...DEFAULTS, ...parsed };
}

/** Reads a JSON config file merged over DEFAULTS; calls back with (error) or (null, config). */
export function readConfig(file, callback) {
  loadConfig(file).then(
    (config) => callback(null, config),
    (error) => callback(error),
  );
}
