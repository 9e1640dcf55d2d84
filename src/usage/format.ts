/** Rounding and number formatting for usage figures, in one place so every view agrees. */

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

/** Minutes are reported as whole minutes, half up. */
export const roundMinutes = (minutes: number): number => Math.round(minutes);

/** "12,345 min"; "<1 min" for a sliver, so a non-zero day never reads as zero. */
export function formatMinutes(minutes: number): string {
  if (minutes > 0 && minutes < 0.5) return '<1 min';
  return `${formatNumber(roundMinutes(minutes))} min`;
}

/** "950", "1.2k", "12k", "3.4M": for axes, bar labels and tight spaces. */
export function formatCompact(value: number): string {
  const abs = Math.abs(value);
  const sign = value < 0 ? '-' : '';
  const scaled = (n: number, suffix: string) => {
    const text = formatNumber(n, n >= 100 ? 0 : 1);
    return `${sign}${text}${suffix}`;
  };
  if (abs >= 999_950_000) return scaled(abs / 1e9, 'B');
  if (abs >= 999_950) return scaled(abs / 1e6, 'M');
  if (abs >= 999.5) return scaled(abs / 1e3, 'k');
  return `${sign}${formatNumber(abs)}`;
}

/** A share 0..1 → "42%", "<1%" for a sliver. */
export function formatShare(share: number): string {
  if (share > 0 && share < 0.005) return '<1%';
  return `${Math.round(share * 100)}%`;
}

/** Change of a total against the previous period. */
export type Change =
  | { kind: 'none' } // no previous period to compare with
  | { kind: 'new' } // nothing before, something now
  | { kind: 'same' }
  | { kind: 'up' | 'down'; pct: number };

export function change(current: number, previous: number | null): Change {
  if (previous === null) return { kind: 'none' };
  const cur = roundMinutes(current);
  const prev = roundMinutes(previous);
  if (prev === 0) return cur === 0 ? { kind: 'same' } : { kind: 'new' };
  const pct = ((cur - prev) / prev) * 100;
  if (Math.abs(pct) < 0.5) return { kind: 'same' };
  return { kind: pct > 0 ? 'up' : 'down', pct: Math.abs(pct) };
}

/** "+12%", "−5%", "new", "no change", or "" with nothing to compare. */
export function formatChange(c: Change): string {
  switch (c.kind) {
    case 'none':
      return '';
    case 'new':
      return 'new';
    case 'same':
      return 'no change';
    case 'up':
    case 'down': {
      const digits = c.pct >= 10 ? 0 : 1;
      return `${c.kind === 'up' ? '+' : '−'}${formatNumber(c.pct, digits)}%`;
    }
  }
}
