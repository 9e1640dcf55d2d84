/**
 * Participant-minute tiers. The service reports overlapping buckets (1–2, 1–4, 1–8, 1–10, 1–25
 * publishers…) for different pricing schemes, so they must not simply be added up. A total is the
 * sum of one partition of 1..∞ publishers; the partition with the most minutes is the one the
 * service filled in for this project.
 */
import { PARTICIPANT_BUCKETS, type ParticipantBucket, type ParticipantMinutes } from '../api/insights';

export interface BucketSpan {
  bucket: ParticipantBucket;
  from: number;
  /** Inclusive; null for "N+". */
  to: number | null;
}

export function bucketSpan(bucket: ParticipantBucket): BucketSpan {
  const m = /^from(\d+)(?:To(\d+)|Plus)Publishers$/.exec(bucket);
  if (!m) throw new RangeError(`unknown participant bucket ${bucket}`);
  return { bucket, from: Number(m[1]), to: m[2] === undefined ? null : Number(m[2]) };
}

/** "1–2 publishers", "36+ publishers". */
export function bucketLabel(bucket: ParticipantBucket): string {
  const { from, to } = bucketSpan(bucket);
  return to === null ? `${from}+ publishers` : `${from}–${to} publishers`;
}

const SPANS = PARTICIPANT_BUCKETS.map(bucketSpan);

/** Every way to cover 1..∞ publishers with non-overlapping buckets, in spec order. */
export const PARTITIONS: readonly (readonly ParticipantBucket[])[] = (() => {
  const out: ParticipantBucket[][] = [];
  const extend = (from: number, chain: ParticipantBucket[]): void => {
    for (const span of SPANS) {
      if (span.from !== from) continue;
      if (span.to === null) out.push([...chain, span.bucket]);
      else extend(span.to + 1, [...chain, span.bucket]);
    }
  };
  extend(1, []);
  return out;
})();

export function sumBuckets(minutes: Readonly<ParticipantMinutes>, buckets: readonly ParticipantBucket[]): number {
  return buckets.reduce((sum, b) => sum + (minutes[b] ?? 0), 0);
}

/** Adds bucket-wise. */
export function addBuckets(a: Readonly<ParticipantMinutes>, b: Readonly<ParticipantMinutes>): ParticipantMinutes {
  return Object.fromEntries(PARTICIPANT_BUCKETS.map((k) => [k, (a[k] ?? 0) + (b[k] ?? 0)])) as ParticipantMinutes;
}

export const emptyBuckets = (): ParticipantMinutes => Object.fromEntries(PARTICIPANT_BUCKETS.map((k) => [k, 0])) as ParticipantMinutes;

/** The partition that accounts for the most minutes; on a tie, the one with more non-zero tiers
 * (the finer split), then spec order. */
export function bestPartition(minutes: Readonly<ParticipantMinutes>): readonly ParticipantBucket[] {
  let best = PARTITIONS[0]!;
  let bestTotal = -1;
  let bestDetail = -1;
  for (const partition of PARTITIONS) {
    const total = sumBuckets(minutes, partition);
    const detail = partition.filter((b) => (minutes[b] ?? 0) > 0).length;
    // Float sums of the same minutes in different groupings can differ in the last bits.
    const epsilon = 1e-6 * Math.max(1, bestTotal);
    if (total > bestTotal + epsilon || (Math.abs(total - bestTotal) <= epsilon && detail > bestDetail)) {
      best = partition;
      bestTotal = total;
      bestDetail = detail;
    }
  }
  return best;
}

/** Total participant minutes, counting every minute once. */
export const participantTotal = (minutes: Readonly<ParticipantMinutes>): number => sumBuckets(minutes, bestPartition(minutes));
