import type { Metric } from '../../src/api/insights';
import { pacificMidnight } from '../../src/usage/ranges';

/** One day's ungrouped metric as Insights returns it (every dimension null unless `extra` sets it). */
export function dailyMetric(date: string, usage: Metric['usage'], extra: Partial<Metric> = {}): Metric {
  return {
    intervalStart: pacificMidnight(date),
    intervalEnd: pacificMidnight(date) + 86_399_999,
    sdkType: null,
    sdkVersion: null,
    country: null,
    region: null,
    browser: null,
    browserVersion: null,
    usage,
    ...extra,
  };
}
