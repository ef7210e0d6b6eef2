import fs from 'node:fs';

export const DEFAULTS = Object.freeze({ outDir: 'dist', minify: false, targets: ['node20'] });

/** Reads a JSON config file merged over DEFAULTS; calls back with (error) or (null, config). */
export function readConfig(file, callback) {
  fs.stat(file, (statError) => {
    if (statError) return callback(statError);
    fs.readFile(file, 'utf8', (readError, text) => {
      if (readError) return callback(readError);
      let parsed;
      try {
        parsed = JSON.parse(text);
      } catch (parseError) {
        return callback(new SyntaxError(`${file}: ${parseError.message}`));
      }
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        return callback(new SyntaxError(`${file}: the configuration must be a JSON object`));
      }
      callback(null, { ...DEFAULTS, ...parsed });
    });
  });
}
