import type { RecordedStream, VideoType } from '../state/model';
import { hash32, mulberry32 } from './random';

/** The service samples stream statistics every 30 seconds per publisher and per subscriber. */
export const SAMPLE_INTERVAL_MS = 30_000;

/** One sample; audio fields are null for a stream without audio, video fields without video. */
export interface StreamStatsSample {
  createdAt: number;
  hasAudio: boolean;
  hasVideo: boolean;
  audioBitrateKbps: number | null;
  videoBitrateKbps: number | null;
  audioLatencyMs: number | null;
  videoLatencyMs: number | null;
  audioPacketLossRatio: number | null;
  videoPacketLossRatio: number | null;
  videoResolution: string | null;
  audioCodec: string | null;
  videoCodec: string | null;
}

export type StatsRole = 'publisher' | 'subscriber';

const VIDEO: Record<VideoType, { minKbps: number; spanKbps: number; resolution: string }> = {
  camera: { minKbps: 400, spanKbps: 500, resolution: '1280x720' },
  screen: { minKbps: 150, spanKbps: 350, resolution: '1920x1080' },
  custom: { minKbps: 300, spanKbps: 400, resolution: '1280x720' },
};

const round = (n: number, digits: number): number => Math.round(n * 10 ** digits) / 10 ** digits;

/** How many samples `[from, to)` holds: the first one 30 s after `from`. */
export function sampleCount(from: number, to: number): number {
  return to > from ? Math.floor((to - from) / SAMPLE_INTERVAL_MS) : 0;
}

/** The seed of a publisher's (`key` = stream ID) or subscriber's (stream and connection IDs) samples. */
export const sampleSeed = (key: string, role: StatsRole): number => hash32(`${key}|${role}`);

/**
 * Sample `index` (1-based) of a series that began at `from`. Values are fixed by seed and index;
 * subscribers see a little less bitrate and a little more latency and loss than publishers.
 */
export function sampleAt(stream: RecordedStream, seed: number, role: StatsRole, from: number, index: number): StreamStatsSample {
  const next = mulberry32((seed ^ Math.imul(index, 0x9e3779b1)) >>> 0);
  const [ab, vb, al, vl, ap, vp] = [next(), next(), next(), next(), next(), next()];
  const video = VIDEO[stream.videoType];
  const receive = role === 'subscriber' ? 0.9 : 1;
  const extra = role === 'subscriber' ? 1.3 : 1;
  return {
    createdAt: from + index * SAMPLE_INTERVAL_MS,
    hasAudio: stream.hasAudio,
    hasVideo: stream.hasVideo,
    audioBitrateKbps: stream.hasAudio ? round((28 + 12 * ab) * receive, 2) : null,
    videoBitrateKbps: stream.hasVideo ? round((video.minKbps + video.spanKbps * vb) * receive, 2) : null,
    audioLatencyMs: stream.hasAudio ? Math.round((30 + 60 * al) * extra) : null,
    videoLatencyMs: stream.hasVideo ? Math.round((40 + 80 * vl) * extra) : null,
    audioPacketLossRatio: stream.hasAudio ? round(0.02 * ap * extra, 4) : null,
    videoPacketLossRatio: stream.hasVideo ? round(0.02 * vp * extra, 4) : null,
    videoResolution: stream.hasVideo ? video.resolution : null,
    audioCodec: stream.hasAudio ? 'OPUS' : null,
    videoCodec: stream.hasVideo ? 'VP8' : null,
  };
}

/** Samples `first` to `first + count - 1` (1-based) of a publisher or subscriber that began at `from`. */
export function samples(stream: RecordedStream, key: string, role: StatsRole, from: number, first: number, count: number): StreamStatsSample[] {
  const seed = sampleSeed(key, role);
  const result: StreamStatsSample[] = [];
  for (let i = first; i < first + count; i += 1) result.push(sampleAt(stream, seed, role, from, i));
  return result;
}
