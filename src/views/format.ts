/** Numbers, durations and sizes as cards, thread replies, lists and reports show them. */

/**
 * Grouped by thousands, with at most `fractionDigits` decimals and no trailing zeros: what
 * `Intl.NumberFormat('en-US', { maximumFractionDigits })` writes. Like it, rounds the number's
 * shortest decimal form half away from zero (0.15 → "0.2", though the double is 0.1499…).
 * Written out rather than asked of ICU, whose first use maps its data into the process for good
 * (~10 MB of RSS, bench/README.md).
 */
export function formatNumber(value: number, fractionDigits = 0): string {
  if (!Number.isFinite(value) || Math.abs(value) >= 1e21) return String(value);
  const rounded = roundDecimal(Math.abs(value), fractionDigits);
  const [whole, decimals = ''] = rounded.split('.') as [string, string?];
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  const shownDecimals = decimals.replace(/0+$/, '');
  return `${sign}${whole.replace(/\B(?=(\d{3})+$)/g, ',')}${shownDecimals ? `.${shownDecimals}` : ''}`;
}

/** `abs` (finite, below 1e21) to `digits` decimals from its shortest decimal form. */
function roundDecimal(abs: number, digits: number): string {
  // Below 1e-6 the shortest form is exponential; such a value rounds to 0 at any digits shown here.
  const text = abs < 1e-6 ? '0' : String(abs);
  const [whole, fraction = ''] = text.split('.') as [string, string?];
  if (fraction.length <= digits) return fraction ? `${whole}.${fraction}` : whole;
  const up = fraction.charCodeAt(digits) >= 0x35; // '5'
  const kept = (BigInt(whole + fraction.slice(0, digits)) + (up ? 1n : 0n)).toString().padStart(digits + 1, '0');
  return digits === 0 ? kept : `${kept.slice(0, -digits)}.${kept.slice(-digits)}`;
}

/** "45 s", "12 min", "1 h 5 min", "4 h". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.round(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** Decimal units, as file managers show them: "512 B", "8.4 MB", "84 MB", "1.2 GB". */
export function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const shown = unit === 0 || value >= 10 ? Math.round(value).toString() : value.toFixed(1).replace(/\.0$/, '');
  return `${shown} ${units[unit]}`;
}

/** A time Slack shows in each reader's own time zone; the fallback is UTC. */
export function slackTime(ms: number): string {
  const fallback = `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return `<!date^${Math.floor(ms / 1000)}^{date_short_pretty} {time}|${fallback}>`;
}
