/**
 * isomorphic-git's pack and object cache: one shared object per repository (keyed by its common
 * git dir), so every facade call reuses parsed packfiles instead of re-reading them.
 */
const caches = new Map<string, object>();

export function isoCacheFor(commonDir: string): object {
  let cache = caches.get(commonDir);
  if (!cache) {
    cache = {};
    caches.set(commonDir, cache);
  }
  return cache;
}

/** Drops a repository's cache (after native git rewrote packs, e.g. gc). */
export function dropIsoCache(commonDir: string): void {
  caches.delete(commonDir);
}
