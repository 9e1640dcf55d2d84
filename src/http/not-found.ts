/**
 * The one answer for anything not served — an unknown path, a wrong callback token, a method a
 * route does not take — so that no answer tells a secret path from a wrong one; and the path as
 * logs may show it, secret path segments left out.
 */
import type { ServerResponse } from 'node:http';

const NOT_FOUND = JSON.stringify({ ok: false, error: 'not_found' });

export function answerNotFound(res: ServerResponse): void {
  if (res.headersSent) return;
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end(NOT_FOUND);
}

/** Paths whose segments after the prefix are secrets (the video service's callback token). */
const SECRET_PREFIXES = ['/callbacks/'];

/** `/callbacks/video/<token>/extra` → `/callbacks/…`; other paths as they are, without the query. */
export function loggablePath(url: string | undefined): string {
  const path = (url ?? '').split(/[?#]/)[0] ?? '';
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A malformed escape: judge the raw spelling.
  }
  const secret = SECRET_PREFIXES.find((prefix) => decoded.toLowerCase().includes(prefix) || path.toLowerCase().includes(prefix));
  return secret ? `${secret}…` : path.slice(0, 200);
}
