/**
 * The page a browser gets for an address without this launch's token (a copied or bookmarked URL, or
 * one from before a restart): what happened and how to get a working link, instead of a bare 403.
 * Static, no script; nothing of the request is echoed back.
 */
export const ACCESS_PAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function accessPage(port: number): string {
  const origin = `http://127.0.0.1:${port}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Lathe: this address needs its access link</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 44rem; margin: 3rem auto; padding: 0 1.2rem; color: #1f2328; background: #fff; }
  h1 { font-size: 1.35rem; }
  code { background: #eef1f4; padding: 0.05rem 0.3rem; border-radius: 4px; }
  .muted { color: #57606a; font-size: 0.9rem; }
  @media (prefers-color-scheme: dark) { body { color: #e6edf3; background: #0d1117; } code { background: #262c36; } .muted { color: #9198a1; } }
</style>
</head>
<body>
<h1>This Lathe window needs its access link</h1>
<p>The address you opened has no access token, or the token of an earlier start of <code>lathe serve</code>.
<code>lathe serve</code> admits only the link it printed when it started, <code>${origin}/?token=…</code>, with a new token at every start.</p>
<ol>
  <li>Open the link printed in the terminal where <code>npx lathe serve</code> runs.</li>
  <li>If it is no longer running (or was restarted), start it again, <code>npx lathe serve --repo DIR</code>, and open the new link it prints.</li>
  <li>To come back to a page you copied (a run, a tab, a file), add <code>&amp;token=…</code> from that link to its address.</li>
</ol>
<p class="muted">Why: the token keeps other web pages and programs on this machine away from your repositories. A browser that opened the link keeps the token
until <code>lathe serve</code> stops; an address copied from its address bar does not carry it.</p>
</body>
</html>
`;
}
