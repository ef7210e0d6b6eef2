import fs from 'node:fs';
import path from 'node:path';
import { isMissing } from '../fsErrors';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

export interface StaticFile {
  absolutePath: string;
  contentType: string;
}

/** Maps a URL path to a file inside `root`; anything that would leave `root` is not found. */
export function resolveStaticFile(root: string, urlPath: string): StaticFile | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch (error) {
    if (!(error instanceof URIError)) throw error;
    return null;
  }
  if (decoded.includes('\0')) return null;
  const relative = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
  const absolutePath = path.resolve(root, relative);
  if (absolutePath !== root && !absolutePath.startsWith(root + path.sep)) return null;
  let stat: fs.Stats;
  try {
    stat = fs.statSync(absolutePath);
  } catch (error) {
    if (!isMissing(error)) throw error;
    return null;
  }
  if (!stat.isFile()) return null;
  const contentType = CONTENT_TYPES[path.extname(absolutePath).toLowerCase()] ?? 'application/octet-stream';
  return { absolutePath, contentType };
}
