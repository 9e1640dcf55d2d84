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
  /** Event-loop delay p99 of the app after the warm-up, ms. */
  loopP99Ms: number;
  peakRssMb: number;
  /** RSS trend after the warm-up, MB/min; judged on runs of at least `trendMinMinutes`. */
  rssTrendMbPerMin: number;
  trendMinMinutes: number;
  /** Change → post p99 may exceed the fast polling interval by this much (429-held notifications apart). */
  latencyOverFastMs: number;
}

export const AIMS: Aims = {
  rssGrowthPct: 10,
  ackRatio: 1.3,
  loopP99Ms: 10,
  peakRssMb: 150,
  rssTrendMbPerMin: 0.2,
  trendMinMinutes: 30,
  latencyOverFastMs: 1_000,
};

export interface Outcome {
  rss: RssVerdict | undefined;
  lost: number;
  duplicates: number;
  vidopsP99: number;
  floorP99: number;
  /** Omitted by callers that do not judge them. */
  loopP99Ms?: number;
  /** Change → post p99 of notifications no Slack 429 held back, and the fast interval. */
  latencyP99Ms?: number;
  fastMs?: number;
  minutes?: number;
}

/** The aims missed, each as a sentence; empty when all are met. */
export function missedAims(o: Outcome, aims: Aims = AIMS): string[] {
  const missed: string[] = [];
  if (!o.rss) missed.push('RSS growth: too few samples after the warm-up to judge');
  else {
    if (o.rss.growthPct >= aims.rssGrowthPct) missed.push(`RSS grew ${o.rss.growthPct.toFixed(1)} % after the warm-up (aim < ${aims.rssGrowthPct} %)`);
    if (o.rss.peakMb > aims.peakRssMb) missed.push(`peak RSS ${o.rss.peakMb.toFixed(1)} MB (aim ≤ ${aims.peakRssMb} MB)`);
    if ((o.minutes ?? 0) >= aims.trendMinMinutes && o.rss.slopeMbPerMin > aims.rssTrendMbPerMin) {
      missed.push(`RSS trend +${o.rss.slopeMbPerMin.toFixed(2)} MB/min after the warm-up (aim ≤ ${aims.rssTrendMbPerMin} MB/min)`);
    }
  }
  if (o.lost > 0) missed.push(`${o.lost} notification(s) lost (aim 0)`);
  if (o.duplicates > 0) missed.push(`${o.duplicates} notification(s) posted more than once (aim 0)`);
  const ratio = o.vidopsP99 / o.floorP99;
  if (!(ratio <= aims.ackRatio))
    missed.push(`p99 ack ${o.vidopsP99.toFixed(1)} ms is ${ratio.toFixed(2)}× the bare Bolt app's ${o.floorP99.toFixed(1)} ms (aim ≤ ${aims.ackRatio}×)`);
  if (o.loopP99Ms !== undefined && !(o.loopP99Ms <= aims.loopP99Ms))
    missed.push(`event loop delay p99 ${o.loopP99Ms.toFixed(1)} ms after the warm-up (aim ≤ ${aims.loopP99Ms} ms)`);
  if (o.latencyP99Ms !== undefined && o.fastMs !== undefined && !(o.latencyP99Ms <= o.fastMs + aims.latencyOverFastMs)) {
    missed.push(
      `change → post p99 ${(o.latencyP99Ms / 1000).toFixed(1)} s without Slack 429s (aim ≤ ${((o.fastMs + aims.latencyOverFastMs) / 1000).toFixed(1)} s, the fast interval + ${aims.latencyOverFastMs / 1000} s)`,
    );
  }
  return missed;
}

/** Why a run's figures cannot be trusted (the load itself failed); empty when it ran as meant. */
export function brokenRun(o: { sent: number; acked: number; errors: Readonly<Record<string, number>>; expected: number; unexpected: number }): string[] {
  const reasons: string[] = [];
  if (o.sent === 0) reasons.push('no command was sent');
  if (o.acked < o.sent) reasons.push(`${o.sent - o.acked} of ${o.sent} commands not acked`);
  const errors = Object.entries(o.errors).filter(([, n]) => n > 0);
  if (errors.length > 0) reasons.push(`load errors: ${errors.map(([k, n]) => `${k} ${n}`).join(', ')}`);
  if (o.expected === 0) reasons.push('no resource change was expected to be posted (the driver did nothing)');
  if (o.unexpected > 0) reasons.push(`${o.unexpected} notification(s) of nothing the driver changed`);
  return reasons;
}

export const mb = (bytes: number): string => (bytes / MB).toFixed(1);
export const fixed = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : '–');
export const p = (values: readonly number[], q: number): number => percentile(values, q);

/** `{a: 2, b: 1}` → `a 2, b 1`, largest first; `none` when empty. */
export function counts(record: Readonly<Record<string, number>>): string {
  const entries = Object.entries(record)
    .filter(([, n]) => n > 0)
    .sort((x, y) => y[1] - x[1]);
  return entries.length === 0 ? 'none' : entries.map(([k, n]) => `${k} ${n}`).join(', ');
}

export function addCounts(into: Record<string, number>, from: Readonly<Record<string, number>>): void {
  for (const [k, n] of Object.entries(from)) into[k] = (into[k] ?? 0) + n;
}
