import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { canRenderText, dailyChartSvg, niceScale, renderDailyChart, textBars } from '../../src/usage/chart';
import { eachDay, makeRange, shortDay } from '../../src/usage/ranges';
import type { DailyPoint } from '../../src/usage/report';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function ihdr(png: Buffer): { width: number; height: number } {
  expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

const week: DailyPoint[] = eachDay(makeRange('2026-10-26', '2026-11-01', 'week', 'last week')).map((date, i) => ({
  date,
  minutes: [12_345, 15_820, 14_210, 16_990, 9_800, 1_200, 0][i]!,
  partial: i >= 5,
}));

describe('renderDailyChart', () => {
  it('renders a PNG of the requested size at the given scale', () => {
    const chart = renderDailyChart(week, { title: 'Participant minutes per day', subtitle: 'Mon 26 Oct – Sun 1 Nov 2026' });
    expect(chart.png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(ihdr(chart.png)).toEqual({ width: 1_600, height: 800 });
    expect([chart.width, chart.height]).toEqual([1_600, 800]);
    expect(chart.png.length).toBeGreaterThan(10_000);

    const small = renderDailyChart(week, { title: 't', width: 600, height: 300, scale: 1 });
    expect(ihdr(small.png)).toEqual({ width: 600, height: 300 });
  });

  it('finds a font on this machine, so the labels are drawn', () => {
    expect(canRenderText()).toBe(true);
    expect(renderDailyChart(week, { title: 't' }).textRendered).toBe(true);
  });

  it('labels every day of a week with weekday and date, and shows values', () => {
    const svg = dailyChartSvg(week, { title: 'Participant minutes per day' });
    for (const point of week) {
      const [weekday, ...rest] = shortDay(point.date).split(' ');
      expect(svg).toContain(`>${weekday}</text>`);
      expect(svg).toContain(`>${rest.join(' ')}</text>`);
    }
    for (const value of ['>12.3k<', '>15.8k<', '>17k<', '>1.2k<', '>pending<']) expect(svg).toContain(value);
    expect(svg).toContain('may still be incomplete');
  });

  it('puts nice ticks on the axis', () => {
    const svg = dailyChartSvg(week, { title: 't' });
    for (const tick of ['>0<', '>5k<', '>10k<', '>15k<', '>20k<']) expect(svg).toContain(tick);
  });

  it('labels all 31 days of a month, and names every bar of a long range in its tooltip', () => {
    const month = eachDay(makeRange('2026-10-01', '2026-10-31', 'month', 'October')).map((date, i) => ({ date, minutes: i * 10 }));
    const svg = dailyChartSvg(month, { title: 'October' });
    for (const p of month) expect(svg).toContain(`>${shortDay(p.date).split(' ').slice(1).join(' ')}</text>`);

    const ninety = eachDay(makeRange('2026-08-06', '2026-11-03', 'days', 'last 90 days')).map((date) => ({ date, minutes: 5 }));
    const long = dailyChartSvg(ninety, { title: 'Last 90 days' });
    expect(long.match(/<title>/g)).toHaveLength(90);
    // Only Mondays are written under the axis when every day would not fit.
    expect(long).toContain('>10 Aug</text>');
    expect(long).not.toContain('>11 Aug</text>');
  });

  it('escapes text it did not write', () => {
    const svg = dailyChartSvg(week, { title: 'Acme <R&D> "team"' });
    expect(svg).toContain('Acme &lt;R&amp;D&gt; &quot;team&quot;');
    expect(() => renderDailyChart(week, { title: '<script>' })).not.toThrow();
  });

  it('draws an empty range on a default scale', () => {
    const empty = week.map((p) => ({ ...p, minutes: 0, partial: false }));
    const chart = renderDailyChart(empty, { title: 'Nothing yet' });
    expect(ihdr(chart.png).width).toBe(1_600);
    expect(chart.svg).not.toContain('<rect x=');
  });
});

describe('niceScale', () => {
  it.each([
    [16_990, 20_000, 5_000],
    [7, 8, 2],
    [100, 100, 20],
    [101, 120, 20],
    [0.3, 1, 1],
    [1_234_567, 1_400_000, 200_000],
    [0, 10, 2],
  ])('max %p → axis to %p by %p', (value, max, step) => {
    const scale = niceScale(value);
    expect([scale.max, scale.step]).toEqual([max, step]);
    expect(scale.ticks[0]).toBe(0);
    expect(scale.ticks.at(-1)).toBe(max);
  });
});

describe('textBars', () => {
  it('draws one monospace line per day, scaled to the largest', () => {
    const text = textBars(week, { width: 20 });
    const lines = text.split('\n');
    expect(lines).toHaveLength(8);
    expect(lines[3]).toBe(`Thu 29 Oct │${'█'.repeat(20)} 16,990`);
    expect(lines[0]).toMatch(/^Mon 26 Oct │█{14}▌? +12,345$/);
    expect(lines[6]).toBe(`Sun 1 Nov  │${' '.repeat(20)}      0*`);
    expect(lines[7]).toBe('* may still be incomplete (Insights lags 36–48 h)');
    const widths = new Set(lines.slice(0, 5).map((l) => [...l].length));
    expect(widths.size).toBe(1);
  });

  it('copes with an all-zero series', () => {
    expect(textBars([{ date: '2026-10-26', minutes: 0 }])).toBe('Mon 26 Oct │                         0');
  });
});

describe("resvg's allocator", () => {
  const ROOT = join(__dirname, '..', '..');
  /** The purge delay resvg's mimalloc reports it read (MIMALLOC_VERBOSE) when a fresh process draws a chart. */
  function purgeDelayRead(env: Record<string, string>): string | undefined {
    const draw = `require('./src/usage/chart').renderDailyChart([{ date: '2026-11-02', minutes: 5 }], { title: 't' })`;
    const { MIMALLOC_PURGE_DELAY: _inherited, ...rest } = process.env;
    const result = spawnSync(process.execPath, ['--import', 'tsx', '-e', draw], {
      cwd: ROOT,
      env: { ...rest, MIMALLOC_VERBOSE: '1', ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(0);
    return /option 'purge_delay': (\d+)/.exec(result.stderr)?.[1];
  }

  it('gives freed memory back 3 ms after a chart frees it (not 10, which held it until the next chart)', () => {
    expect(purgeDelayRead({})).toBe('3');
  });

  it("leaves an operator's own MIMALLOC_PURGE_DELAY as it is", () => {
    expect(purgeDelayRead({ MIMALLOC_PURGE_DELAY: '25' })).toBe('25');
  });
});
