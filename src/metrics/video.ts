/** The video adapter's request events (src/api/observer.ts) counted and timed. */
import type { VideoRequestObserver } from '../api';
import type { VidopsMetrics } from './registry';

export function videoRequestMetrics(metrics: VidopsMetrics): VideoRequestObserver {
  return (event) => {
    metrics.videoRequests.inc({ operation: event.operation, status: event.status });
    metrics.videoRequestDuration.observe({ operation: event.operation }, event.durationMs / 1000);
  };
}
