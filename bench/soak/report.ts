/**
 * The soak's arithmetic and its printed lines: pure functions over what was measured.
 */
import { median, percentile } from '../lib/stats';

export interface RssSample {
  /** Seconds since the load started. */
  at: number;
  bytes: number;
}

export interface RssVerdict {
  baselineMb: number;
  finalMb: number;
  growthPct: number;
  peakMb: number;
  /** Least-squares slope after the warm-up, MB per minute. */
  slopeMbPerMin: number;
}

const MB = 1024 * 1024;

/**
 * Growth after the warm-up: the median RSS of the first `spanS` seconds after `warmupS` against
 * the median of the last `spanS` seconds (medians, so one collection does not decide it).
 */
export function rssGrowth(samples: readonly RssSample[], warmupS: number, spanS: number): RssVerdict | undefined {
  const after = samples.filter((s) => s.at >= warmupS);
  if (after.length < 2) return undefined;
  const end = after[after.length - 1]!.at;
  const first = after.filter((s) => s.at < warmupS + spanS).map((s) => s.bytes);
  const last = after.filter((s) => s.at > end - spanS).map((s) => s.bytes);
  const baseline = median(first);
  const final = median(last);
  const meanAt = after.reduce((sum, s) => sum + s.at, 0) / after.length;
  const meanBytes = after.reduce((sum, s) => sum + s.bytes, 0) / after.length;
  const covariance = after.reduce((sum, s) => sum + (s.at - meanAt) * (s.bytes - meanBytes), 0);
  const variance = after.reduce((sum, s) => sum + (s.at - meanAt) ** 2, 0);
  return {
    baselineMb: baseline / MB,
    finalMb: final / MB,
    growthPct: ((final - baseline) / baseline) * 100,
    peakMb: Math.max(...after.map((s) => s.bytes)) / MB,
    slopeMbPerMin: variance === 0 ? 0 : ((covariance / variance) * 60) / MB,
  };
}

export interface Aims {
  rssGrowthPct: number;
  ackRatio: number;
}

export const AIMS: Aims = { rssGrowthPct: 10, ackRatio: 1.3 };

export interface Outcome {
  rss: RssVerdict | undefined;
  lost: number;
  duplicates: number;
  vidopsP99: number;
  floorP99: number;
}

/** The aims missed, each as a sentence; empty when all are met. */
export function missedAims(o: Outcome, aims: Aims = AIMS): string[] {
  const missed: string[] = [];
  if (!o.rss) missed.push('RSS growth: too few samples after the warm-up to judge');
  else if (o.rss.growthPct >= aims.rssGrowthPct) missed.push(`RSS grew ${o.rss.growthPct.toFixed(1)} % after the warm-up (aim < ${aims.rssGrowthPct} %)`);
  if (o.lost > 0) missed.push(`${o.lost} notification(s) lost (aim 0)`);
  if (o.duplicates > 0) missed.push(`${o.duplicates} notification(s) posted more than once (aim 0)`);
  const ratio = o.vidopsP99 / o.floorP99;
  if (!(ratio <= aims.ackRatio)) missed.push(`p99 ack ${o.vidopsP99.toFixed(1)} ms is ${ratio.toFixed(2)}× the bare Bolt app's ${o.floorP99.toFixed(1)} ms (aim ≤ ${aims.ackRatio}×)`);
  return missed;
}

export const mb = (bytes: number): string => (bytes / MB).toFixed(1);
export const fixed = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : '–');
export const p = (values: readonly number[], q: number): number => percentile(values, q);

/** `{a: 2, b: 1}` → `a 2, b 1`, largest first; `none` when empty. */
export function counts(record: Readonly<Record<string, number>>): string {
  const entries = Object.entries(record).filter(([, n]) => n > 0).sort((x, y) => y[1] - x[1]);
  return entries.length === 0 ? 'none' : entries.map(([k, n]) => `${k} ${n}`).join(', ');
}

export function addCounts(into: Record<string, number>, from: Readonly<Record<string, number>>): void {
  for (const [k, n] of Object.entries(from)) into[k] = (into[k] ?? 0) + n;
}
