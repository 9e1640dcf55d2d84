import type { Attempts, Facts, QualitySums } from './facts';

/**
 * The spec's participant-minute buckets by number of publishers. They overlap (tiers of
 * different price plans): a minute counts in every bucket whose range holds the number of
 * streams published in the meeting at that time. Minutes with nobody publishing are in none.
 */
export const PARTICIPANT_BUCKETS = [
  ['from1To2Publishers', 1, 2],
  ['from3To6Publishers', 3, 6],
  ['from7To8Publishers', 7, 8],
  ['from1To4Publishers', 1, 4],
  ['from5To8Publishers', 5, 8],
  ['from1To8Publishers', 1, 8],
  ['from1To10Publishers', 1, 10],
  ['from9To10Publishers', 9, 10],
  ['from11To35Publishers', 11, 35],
  ['from11To20Publishers', 11, 20],
  ['from21To35Publishers', 21, 35],
  ['from36To40Publishers', 36, 40],
  ['from36PlusPublishers', 36, Number.POSITIVE_INFINITY],
  ['from41PlusPublishers', 41, Number.POSITIVE_INFINITY],
  ['from1To25Publishers', 1, 25],
  ['from3To25Publishers', 3, 25],
  ['from26To35Publishers', 26, 35],
] as const;

export type ParticipantBucket = (typeof PARTICIPANT_BUCKETS)[number][0];
export type ParticipantMinutes = Record<ParticipantBucket, number>;

/** Minutes from milliseconds, to the thousandth (what every minutes field answers). */
export const minutes = (ms: number): number => Math.round(ms / 60) / 1000;

export function participantMinutes(byPublishers: ReadonlyMap<number, number>): ParticipantMinutes {
  const result = {} as ParticipantMinutes;
  for (const [name, min, max] of PARTICIPANT_BUCKETS) {
    let ms = 0;
    for (const [count, value] of byPublishers) if (count >= min && count <= max) ms += value;
    result[name] = minutes(ms);
  }
  return result;
}

export interface Usage {
  streamedPublishedMinutes: number;
  streamedSubscribedMinutes: number;
  participantMinutes: ParticipantMinutes;
}

export function usage(f: Facts): Usage {
  return {
    streamedPublishedMinutes: minutes(f.publishedMs),
    streamedSubscribedMinutes: minutes(f.subscribedMs),
    participantMinutes: participantMinutes(f.participantMs),
  };
}

const avg = (total: number, n: number, digits: number): number | null => (n > 0 ? Math.round((total / n) * 10 ** digits) / 10 ** digits : null);

export function qualityAverages(q: QualitySums) {
  return {
    audioBitrateKbpsAvg: avg(q.audioBitrateKbps, q.audioSamples, 2),
    videoBitrateKbpsAvg: avg(q.videoBitrateKbps, q.videoSamples, 2),
    audioLatencyMsAvg: avg(q.audioLatencyMs, q.audioSamples, 2),
    videoLatencyMsAvg: avg(q.videoLatencyMs, q.videoSamples, 2),
    audioPacketLossRatioAvg: avg(q.audioPacketLossRatio, q.audioSamples, 5),
    videoPacketLossRatioAvg: avg(q.videoPacketLossRatio, q.videoSamples, 5),
    samples: q.samples,
  };
}

export function attemptStats(a: Attempts) {
  return { attempts: a.attempts, failures: a.failures, failureRate: a.attempts > 0 ? Math.round((a.failures / a.attempts) * 1e4) / 1e4 : null };
}
