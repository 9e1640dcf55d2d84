import { randomBytes, randomUUID } from 'node:crypto';

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Session IDs look like the service's: `{cluster}_` + base64url("1~{key}~{ip}~{date}~{random}~"). */
export const SESSION_ID_PATTERN = /^[12]_MX[A-Za-z0-9_-]{8,}$/;

export const newId = (): string => randomUUID();
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);
export const isSessionId = (value: string): boolean => SESSION_ID_PATTERN.test(value);

export function randomSecret(): string {
  return randomBytes(20).toString('hex');
}

export function newSessionId(apiKey: string, routed: boolean, createdAt: number): string {
  const raw = `1~${apiKey}~127.0.0.1~${new Date(createdAt).toUTCString()}~${Math.random()}~`;
  return `${routed ? '2' : '1'}_${Buffer.from(raw, 'utf8').toString('base64url')}`;
}

/** `projectId` as archives and broadcasts carry it: an integer when the key is numeric. */
export function projectIdValue(apiKey: string): number | string {
  if (/^\d{1,15}$/.test(apiKey)) return Number(apiKey);
  return apiKey;
}

/** The service's session `create_dt`, Java `Date.toString()` style in UTC: `Mon Nov 02 17:00:00 UTC 2026`. */
export function javaDateString(epochMs: number): string {
  const d = new Date(epochMs);
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const pad = (n: number): string => String(n).padStart(2, '0');
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return `${days[d.getUTCDay()]} ${months[d.getUTCMonth()]} ${pad(d.getUTCDate())} ${time} UTC ${d.getUTCFullYear()}`;
}
