// Vitest evaluates test modules itself; this file is loaded by Node's own require, so its import() is Node's.
module.exports = (url) => import(url);
