import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const TOKEN_COOKIE = 'lathe_token';

/** The reason for a request that names this host properly but carries no valid token. */
export const TOKEN_MISSING = 'missing or wrong token';

export type AccessDecision = { allowed: true; viaQuery: boolean } | { allowed: false; reason: string };

export function newAccessToken(): string {
  return crypto.randomBytes(24).toString('base64url');
}

/**
 * Admits a request only when it names this host by loopback address (DNS rebinding), comes from no
 * foreign page (Origin) and carries the launch token, in the query or in the cookie set from it.
 */
export function checkAccess(
  request: IncomingMessage,
  port: number,
  token: string,
  requireOrigin: boolean,
): AccessDecision {
  const allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const host = request.headers.host ?? '';
  if (!allowedHosts.has(host)) return { allowed: false, reason: 'foreign Host header' };

  const origin = request.headers.origin;
  if (origin === undefined) {
    if (requireOrigin) return { allowed: false, reason: 'missing Origin header' };
  } else if (!allowedHosts.has(stripHttpScheme(origin))) {
    return { allowed: false, reason: 'foreign Origin header' };
  }

  const queryToken = new URL(request.url ?? '/', `http://${host}`).searchParams.get('token');
  if (queryToken !== null && sameSecret(queryToken, token)) return { allowed: true, viaQuery: true };
  const cookieToken = readCookie(request.headers.cookie, TOKEN_COOKIE);
  if (cookieToken !== null && sameSecret(cookieToken, token)) return { allowed: true, viaQuery: false };
  return { allowed: false, reason: TOKEN_MISSING };
}

function stripHttpScheme(origin: string): string {
  return origin.startsWith('http://') ? origin.slice('http://'.length) : `\0${origin}`;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return null;
}

export function tokenCookie(token: string): string {
  return `${TOKEN_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`;
}
