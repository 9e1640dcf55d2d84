/**
 * `/usage last 90 days --by sdk` end to end: signed slash command → real Bolt app → Insights
 * (the emulator, 90 days of synthetic history) → report, PNG chart → files.uploadV2 to the fake
 * Slack. Each round measures the time from sending the command to the completed upload, and
 * counts the GraphQL requests the emulator received and the Slack Web API calls the app made:
 * cold (usage cache cleared) and cached (the same question again). A second table splits a cold
 * answer: Insights reads, building the report, drawing the PNG.
 *
 *   npm run bench:usage [-- --rounds 7 --latency 0]
 *
 * `--latency` delays every emulator answer (ms of wall-clock time), as a network would.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { loadReport } from '../src/commands/usage/answers';
import { UsageCache } from '../src/commands/usage/cache';
import { dailySeries, loadUsageReport, parseRange, renderDailyChart } from '../src/usage';
import { startTestApp, type TestApp } from '../test/harness/app';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '7' }, latency: { type: 'string', default: '0' } },
});
const ROUNDS = Number(values.rounds);
const LATENCY = Number(values.latency);
const QUESTION = 'last 90 days --by sdk';

interface Sample {
  ms: number;
  graphql: number;
  slack: number;
}

const graphqlCount = (t: TestApp) => t.emulator.control.requestLog().filter((e) => e.path.endsWith('/graphql')).length;

async function ask(t: TestApp): Promise<Sample> {
  const graphqlBefore = graphqlCount(t);
  const since = t.slack.mark();
  const started = performance.now();
  await t.slash('/usage', QUESTION);
  await t.waitForSlackCall('files.completeUploadExternal', () => true, { since, timeoutMs: 60_000 });
  const ms = performance.now() - started;
  return { ms, graphql: graphqlCount(t) - graphqlBefore, slack: t.slack.calls.filter((c) => c.seq >= since).length };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const fmt = (n: number) => n.toFixed(1).padStart(8);

function row(name: string, samples: Sample[]): string {
  const ms = samples.map((s) => s.ms);
  const graphql = [...new Set(samples.map((s) => s.graphql))].join('/');
  const slack = [...new Set(samples.map((s) => s.slack))].join('/');
  return `${name.padEnd(28)}${String(samples.length).padStart(7)}${fmt(median(ms))}${fmt(Math.min(...ms))}${fmt(Math.max(...ms))}${graphql.padStart(10)}${slack.padStart(8)}`;
}

async function main(): Promise<void> {
  const t = await startTestApp({ useEmulatorClock: true });
  try {
    t.emulator.control.setLatency(LATENCY);
    const now = t.emulator.control.now();
    const parsed = parseRange('last 90 days', { now });
    if (!parsed.ok) throw new Error(parsed.error);
    const days = t.emulator.control.insightsGroundTruth(t.project.apiKey, { start: parsed.value.range.start, end: parsed.value.range.end - 1 });
    process.stdout.write(
      `/usage ${QUESTION}: ${parsed.value.range.firstDay}..${parsed.value.range.lastDay}, ${days.length} days with usage ` +
        `(synthetic history), emulator latency ${LATENCY} ms, ${ROUNDS} rounds\n\n`,
    );

    // Warm-up: fonts for the chart, JIT, connections.
    await ask(t);
    const cold: Sample[] = [];
    const cached: Sample[] = [];
    for (let i = 0; i < ROUNDS; i += 1) {
      t.services.usageCache.clear();
      cold.push(await ask(t));
      cached.push(await ask(t));
    }
    process.stdout.write(`${'end to end (slash → upload)'.padEnd(28)} rounds  p50 ms  min ms  max ms   GraphQL   Slack\n`);
    process.stdout.write(`${'-'.repeat(86)}\n`);
    process.stdout.write(`${row('cold (cache cleared)', cold)}\n${row('cached', cached)}\n\n`);

    // Where a cold answer's time goes, in-process.
    const source = t.services.insights('prod')!;
    const phases = { insights: [] as number[], chart: [] as number[], cachedLoad: [] as number[] };
    const requestsBefore = graphqlCount(t);
    for (let i = 0; i < ROUNDS; i += 1) {
      let started = performance.now();
      const report = await loadUsageReport(source, { range: parsed.value.range, previous: parsed.value.previous, now, by: 'sdk', topSessions: false });
      phases.insights.push(performance.now() - started);
      started = performance.now();
      const series = dailySeries(report);
      renderDailyChart(series.points, { title: series.title, subtitle: report.description });
      phases.chart.push(performance.now() - started);
      const cache = new UsageCache();
      await loadReport(cache, source, { projectName: 'prod', parsed: parsed.value, by: 'sdk' }, now);
      started = performance.now();
      await loadReport(cache, source, { projectName: 'prod', parsed: parsed.value, by: 'sdk' }, now);
      phases.cachedLoad.push(performance.now() - started);
    }
    // Each round: one cold load for the phase, one for the cache (then a hit).
    const perLoad = (graphqlCount(t) - requestsBefore) / (2 * ROUNDS);
    process.stdout.write(`${'phase (in-process)'.padEnd(36)}  p50 ms  min ms  max ms\n${'-'.repeat(62)}\n`);
    const phase = (name: string, xs: number[]) => `${name.padEnd(36)}${fmt(median(xs))}${fmt(Math.min(...xs))}${fmt(Math.max(...xs))}\n`;
    process.stdout.write(phase(`Insights reads + report (${perLoad} queries)`, phases.insights));
    process.stdout.write(phase('chart PNG (90 bars, 1600×800)', phases.chart));
    process.stdout.write(phase('cached answer (cache hit)', phases.cachedLoad));
  } finally {
    await t.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
