/**
 * `/usage last 90 days --by sdk` end to end: signed slash command → real Bolt app → Insights
 * (the emulator, 90 days of synthetic history) → report, PNG chart → files.uploadV2 to the fake
 * Slack. Each round measures the time from sending the command to the report posted with it, and
 * counts the GraphQL requests the emulator received and the Slack Web API calls the app made:
 * cold (usage cache cleared) and cached (the same question again). A second table splits a cold
 * answer: Insights reads, building the report, drawing the PNG.
 *
 *   npm run bench:usage [-- --rounds 7 --latency 0]
 *
 * `--latency` delays every emulator answer (ms of wall-clock time), as a network would.
 *
 * The run checks its preconditions and exits 1 naming the first that failed, printing no figures:
 * every command acked 200 and ended in its report posted in its channel, showing the uploaded
 * PNG; each cold answer queried Insights and each cached one did not (else the row would time
 * something else); the report covered every day of the range; the app logged no warning or error.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { loadReport } from '../src/commands/usage/answers';
import { UsageCache } from '../src/commands/usage/cache';
import { dailySeries, loadUsageReport, parseRange, renderDailyChart } from '../src/usage';
import { CHANNEL, startTestApp, type TestApp } from '../test/harness/app';
import { chartImageBlock } from '../test/usage-e2e/fixtures';

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

/** Thrown when a precondition fails: the run is broken and prints no figures. */
class BrokenRun extends Error {}

/** What the app logged at warn or error: a healthy run logs nothing there. */
const logged: string[] = [];
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

const graphqlCount = (t: TestApp) => t.emulator.control.requestLog().filter((e) => e.path.endsWith('/graphql')).length;

async function ask(t: TestApp, what: string): Promise<Sample> {
  const graphqlBefore = graphqlCount(t);
  const since = t.slack.mark();
  const started = performance.now();
  const { status } = await t.slash('/usage', QUESTION);
  if (status !== 200) throw new BrokenRun(`${what}: /usage answered ${status}`);
  // Done when the report is in the command's channel, showing the uploaded chart as an image block.
  const posted = await t
    .waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL && chartImageBlock(c.body) !== undefined, { since, timeoutMs: 60_000 })
    .catch(() => undefined);
  const ms = performance.now() - started;
  if (!posted) throw new BrokenRun(`${what}: no report showing its chart was posted in the command's channel ${CHANNEL} within 60 s`);
  const upload = t.slack.uploads.find((u) => u.fileId === chartImageBlock(posted.body)!.slack_file.id);
  if (!upload?.bytes?.subarray(0, 4).equals(PNG)) throw new BrokenRun(`${what}: the chart the report shows is not an uploaded PNG`);
  if (logged.length > 0) throw new BrokenRun(`${what}: the app logged ${logged.length} warning(s) or error(s); the first: ${logged[0]}`);
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
  const t = await startTestApp({ useEmulatorClock: true, logLevel: 'warn', logStream: { write: (line) => logged.push(line.slice(0, 300)) } });
  try {
    t.emulator.control.setLatency(LATENCY);
    const now = t.emulator.control.now();
    const parsed = parseRange('last 90 days', { now });
    if (!parsed.ok) throw new Error(parsed.error);
    const days = t.emulator.control.insightsGroundTruth(t.project.apiKey, { start: parsed.value.range.start, end: parsed.value.range.end - 1 });
    if (days.length === 0) throw new BrokenRun('the emulator holds no usage in the range: the report would be empty');
    const out: string[] = [
      `/usage ${QUESTION}: ${parsed.value.range.firstDay}..${parsed.value.range.lastDay}, ${days.length} days with usage ` +
        `(synthetic history), emulator latency ${LATENCY} ms, ${ROUNDS} rounds\n\n`,
    ];

    // Warm-up: fonts for the chart, JIT, connections.
    await ask(t, 'warm-up');
    const cold: Sample[] = [];
    const cached: Sample[] = [];
    for (let i = 0; i < ROUNDS; i += 1) {
      t.services.usageCache.clear();
      const coldSample = await ask(t, `round ${i + 1}, cold`);
      if (coldSample.graphql === 0) throw new BrokenRun(`round ${i + 1}: the cold answer made no Insights query (the cache was not cleared)`);
      cold.push(coldSample);
      const cachedSample = await ask(t, `round ${i + 1}, cached`);
      if (cachedSample.graphql !== 0)
        throw new BrokenRun(`round ${i + 1}: the cached answer made ${cachedSample.graphql} Insights queries (it was not served from the cache)`);
      cached.push(cachedSample);
    }
    out.push(`${'end to end (slash → post)'.padEnd(28)} rounds  p50 ms  min ms  max ms   GraphQL   Slack\n`);
    out.push(`${'-'.repeat(86)}\n`);
    out.push(`${row('cold (cache cleared)', cold)}\n${row('cached', cached)}\n\n`);

    // Where a cold answer's time goes, in-process.
    const source = t.services.insights('prod')!;
    const phases = { insights: [] as number[], chart: [] as number[], cachedLoad: [] as number[] };
    const requestsBefore = graphqlCount(t);
    const { firstDay, lastDay } = parsed.value.range;
    let bars = 0;
    for (let i = 0; i < ROUNDS; i += 1) {
      let started = performance.now();
      const report = await loadUsageReport(source, { range: parsed.value.range, previous: parsed.value.previous, now, by: 'sdk', topSessions: false });
      phases.insights.push(performance.now() - started);
      if (report.daily[0]?.date !== firstDay || report.daily.at(-1)?.date !== lastDay) {
        throw new BrokenRun(`phase round ${i + 1}: the report runs ${report.daily[0]?.date}..${report.daily.at(-1)?.date}, not ${firstDay}..${lastDay}`);
      }
      started = performance.now();
      const series = dailySeries(report);
      const chart = renderDailyChart(series.points, { title: series.title, subtitle: report.description });
      phases.chart.push(performance.now() - started);
      if (series.points.length !== report.daily.length || !chart.png.subarray(0, 4).equals(PNG))
        throw new BrokenRun(`phase round ${i + 1}: the chart is not a PNG of every day`);
      bars = series.points.length;
      const cache = new UsageCache();
      await loadReport(cache, source, { projectName: 'prod', parsed: parsed.value, by: 'sdk' }, now);
      const beforeHit = graphqlCount(t);
      started = performance.now();
      await loadReport(cache, source, { projectName: 'prod', parsed: parsed.value, by: 'sdk' }, now);
      phases.cachedLoad.push(performance.now() - started);
      if (graphqlCount(t) !== beforeHit) throw new BrokenRun(`phase round ${i + 1}: the second load was not a cache hit`);
    }
    // Each round: one cold load for the phase, one for the cache (then a hit).
    const perLoad = (graphqlCount(t) - requestsBefore) / (2 * ROUNDS);
    if (logged.length > 0) throw new BrokenRun(`phases: the app logged ${logged.length} warning(s) or error(s); the first: ${logged[0]}`);
    out.push(`${'phase (in-process)'.padEnd(36)}  p50 ms  min ms  max ms\n${'-'.repeat(62)}\n`);
    const phase = (name: string, xs: number[]) => `${name.padEnd(36)}${fmt(median(xs))}${fmt(Math.min(...xs))}${fmt(Math.max(...xs))}\n`;
    out.push(phase(`Insights reads + report (${perLoad} queries)`, phases.insights));
    out.push(phase(`chart PNG (${bars} bars, 1600×800)`, phases.chart));
    out.push(phase('cached answer (cache hit)', phases.cachedLoad));
    out.push(
      `\nChecked: every /usage acked 200 and posted its report in its channel, showing the uploaded PNG; cold answers queried Insights, cached ones did not; reports covered ${firstDay}..${lastDay}; nothing logged at warn or error.\n`,
    );
    process.stdout.write(out.join(''));
  } finally {
    await t.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    error instanceof BrokenRun ? `bench:usage: broken run, no figures: ${error.message}\n` : `${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
