/**
 * Daily usage as a bar chart: SVG built here, rasterised to PNG by resvg (no browser, no canvas),
 * plus a monospace text version for workspaces where the app cannot upload files.
 */
import type * as ResvgJs from '@resvg/resvg-js';
import type { ResvgRenderOptions } from '@resvg/resvg-js';
import { formatCompact, formatMinutes } from './format';
import { shortDay, type IsoDate } from './ranges';
import type { DailyPoint } from './report';

let resvgModule: typeof ResvgJs | undefined;

/**
 * How long resvg's allocator waits before giving freed memory back, in ms. resvg-js brings its
 * own malloc (mimalloc), which reads this when the library loads and only acts on it while it is
 * called: at its default of 10 ms a chart's fonts and pixels, freed as the drawing ends, stayed in
 * the process until the next chart (+20 MB of RSS after one, against +10 MB at 3 ms; 0 gives
 * memory back on every free and draws seven times slower). A value set by the operator stands.
 */
const RESVG_PURGE_DELAY_MS = '3';

/** The native rasteriser, loaded with the first chart: a process that draws none never maps it (~5 MB of RSS). */
function newResvg(...args: ConstructorParameters<typeof ResvgJs.Resvg>): ResvgJs.Resvg {
  if (resvgModule === undefined) {
    process.env.MIMALLOC_PURGE_DELAY ??= RESVG_PURGE_DELAY_MS;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
    resvgModule = require('@resvg/resvg-js') as typeof ResvgJs;
  }
  return new resvgModule.Resvg(...args);
}

export interface ChartOptions {
  title: string;
  subtitle?: string;
  /** CSS pixels; the PNG is `scale` times larger for sharp display on high-density screens. */
  width?: number;
  height?: number;
  scale?: number;
}

export interface RenderedChart {
  svg: string;
  png: Buffer;
  /** PNG size in pixels. */
  width: number;
  height: number;
  /** False when no font could be loaded: the PNG then has bars but no words, and callers
   * should send `textBars` alongside it. */
  textRendered: boolean;
}

const FONT = "'DejaVu Sans', 'Liberation Sans', Arial, Helvetica, sans-serif";
const COLOR = { bar: '#4f46e5', partial: '#a5b4fc', grid: '#e5e7eb', axis: '#9ca3af', text: '#111827', muted: '#6b7280', value: '#374151' };
const RENDER: ResvgRenderOptions = { font: { loadSystemFonts: true }, background: '#ffffff', shapeRendering: 2, textRendering: 1 };

export function renderDailyChart(series: readonly DailyPoint[], options: ChartOptions): RenderedChart {
  const svg = dailyChartSvg(series, options);
  const scale = options.scale ?? 2;
  const image = newResvg(svg, { ...RENDER, fitTo: { mode: 'zoom', value: scale } }).render();
  return { svg, png: image.asPng(), width: image.width, height: image.height, textRendered: canRenderText() };
}

let textProbe: boolean | undefined;

/** Whether resvg finds a font for our text on this machine (once per process). */
export function canRenderText(): boolean {
  textProbe ??=
    newResvg(
      `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><text x="2" y="15" font-family="${FONT}" font-size="14">08</text></svg>`,
      RENDER,
    ).getBBox() !== undefined;
  return textProbe;
}

/** Axis maximum and ticks at 1, 2 or 5 × 10ⁿ steps (never below 1 minute), as close to
 * `target` intervals as those steps allow. */
export function niceScale(maxValue: number, target = 5): { max: number; step: number; ticks: number[] } {
  if (!(maxValue > 0)) return { max: 10, step: 2, ticks: [0, 2, 4, 6, 8, 10] };
  const magnitude = 10 ** Math.floor(Math.log10(maxValue / target));
  const candidates = [1, 2, 5, 10, 20].map((m) => m * magnitude).filter((s) => s >= 1);
  const steps = candidates.length > 0 ? candidates : [1];
  const intervals = (s: number) => Math.ceil(maxValue / s - 1e-9);
  const step = steps.reduce((best, s) => (Math.abs(intervals(s) - target) < Math.abs(intervals(best) - target) ? s : best));
  const max = roundTo(intervals(step) * step, step);
  const ticks = Array.from({ length: intervals(step) + 1 }, (_, i) => roundTo(i * step, step));
  return { max, step, ticks };
}

const roundTo = (value: number, step: number) => {
  const digits = Math.max(0, -Math.floor(Math.log10(step)));
  return Number(value.toFixed(digits));
};

type LabelMode = 'two-line' | 'rotated' | 'sparse';

export function dailyChartSvg(series: readonly DailyPoint[], options: ChartOptions): string {
  const width = options.width ?? 800;
  const height = options.height ?? 400;
  const values = series.map((p) => Math.max(0, p.minutes));
  const scale = niceScale(Math.max(0, ...values));
  const yLabels = scale.ticks.map(formatCompact);

  const top = options.subtitle ? 78 : 60;
  const left = 24 + Math.max(...yLabels.map((l) => l.length)) * 7.5 + 10;
  const right = width - 24;
  const slot = (right - left) / Math.max(1, series.length);
  const mode: LabelMode = slot >= 44 ? 'two-line' : slot >= 13 ? 'rotated' : 'sparse';
  const hasPartial = series.some((p) => p.partial);
  const bottom = height - (mode === 'two-line' ? 42 : 58) - (hasPartial ? 18 : 0);
  const plotH = bottom - top;
  const y = (v: number) => bottom - (v / scale.max) * plotH;

  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT}" role="img" aria-label="${esc(options.title)}">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="24" y="32" font-size="18" font-weight="bold" fill="${COLOR.text}">${esc(options.title)}</text>`,
  );
  if (options.subtitle) out.push(`<text x="24" y="54" font-size="13" fill="${COLOR.muted}">${esc(options.subtitle)}</text>`);

  scale.ticks.forEach((tick, i) => {
    const ty = num(y(tick));
    out.push(
      `<line x1="${num(left)}" y1="${ty}" x2="${num(right)}" y2="${ty}" stroke="${i === 0 ? COLOR.axis : COLOR.grid}" stroke-width="1"/>`,
      `<text x="${num(left - 8)}" y="${num(y(tick) + 4)}" font-size="11" text-anchor="end" fill="${COLOR.muted}">${yLabels[i]}</text>`,
    );
  });

  const barW = Math.min(56, slot * 0.72);
  const labelled = sparseLabels(
    series.map((p) => p.date),
    slot,
    mode,
  );
  const showValues = slot >= 30;
  series.forEach((point, i) => {
    const value = values[i]!;
    const cx = left + slot * (i + 0.5);
    const by = y(value);
    const fill = point.partial ? COLOR.partial : COLOR.bar;
    out.push(`<g><title>${esc(`${shortDay(point.date)}: ${formatMinutes(value)}${point.partial ? ' (may be incomplete)' : ''}`)}</title>`);
    if (value > 0) {
      out.push(`<rect x="${num(cx - barW / 2)}" y="${num(by)}" width="${num(barW)}" height="${num(Math.max(1, bottom - by))}" rx="2" fill="${fill}"/>`);
    }
    if (showValues) {
      // A zero on a day whose figures have not arrived yet is not "no usage".
      const label = point.partial && value === 0 ? 'pending' : formatCompact(value);
      out.push(`<text x="${num(cx)}" y="${num(by - 5)}" font-size="11" text-anchor="middle" fill="${COLOR.value}">${label}</text>`);
    }
    if (labelled(i)) out.push(dayLabel(point.date, cx, bottom, mode));
    out.push('</g>');
  });

  if (hasPartial) {
    const ly = height - 12;
    out.push(
      `<rect x="${num(right - 222)}" y="${ly - 9}" width="10" height="10" rx="2" fill="${COLOR.partial}"/>`,
      `<text x="${num(right)}" y="${ly}" font-size="11" text-anchor="end" fill="${COLOR.muted}">may still be incomplete (36–48 h lag)</text>`,
    );
  }
  out.push('</svg>');
  return out.join('\n');
}

/** Which days get a visible date: all when they fit, else Mondays, else the 1st of each month.
 * (Every bar still carries its date in a tooltip title.) */
function sparseLabels(dates: readonly IsoDate[], slot: number, mode: LabelMode): (i: number) => boolean {
  if (mode !== 'sparse') return () => true;
  if (slot * 7 >= 16) return (i) => shortDay(dates[i]!).startsWith('Mon');
  return (i) => dates[i]!.endsWith('-01');
}

function dayLabel(date: IsoDate, cx: number, bottom: number, mode: LabelMode): string {
  const [weekday, ...rest] = shortDay(date).split(' ');
  const dayMonth = rest.join(' ');
  if (mode === 'two-line') {
    return (
      `<text x="${num(cx)}" y="${num(bottom + 17)}" font-size="11" text-anchor="middle" fill="${COLOR.text}">${weekday}</text>` +
      `<text x="${num(cx)}" y="${num(bottom + 31)}" font-size="11" text-anchor="middle" fill="${COLOR.muted}">${dayMonth}</text>`
    );
  }
  const ly = bottom + 14;
  return `<text x="${num(cx + 4)}" y="${num(ly)}" font-size="10" text-anchor="end" fill="${COLOR.muted}" transform="rotate(-45 ${num(cx + 4)} ${num(ly)})">${dayMonth}</text>`;
}

const num = (n: number) => (Math.round(n * 10) / 10).toString();

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/**
 * A monospace bar chart, one line per day, for a Slack code block:
 * `Mon 26 Oct │████████▌           12,345`
 */
export function textBars(series: readonly DailyPoint[], options: { width?: number } = {}): string {
  const cells = options.width ?? 24;
  const max = Math.max(0, ...series.map((p) => p.minutes));
  const figures = series.map((p) => formatMinutes(Math.max(0, p.minutes)).replace(/ min$/, ''));
  const figureWidth = Math.max(...figures.map((f) => f.length), 1);
  const lines = series.map((p, i) => {
    const eighths = max > 0 ? Math.round((Math.max(0, p.minutes) / max) * cells * 8) : 0;
    const bar = '█'.repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8];
    const mark = p.partial ? '*' : ' ';
    return `${shortDay(p.date).padEnd(10)} │${bar.padEnd(cells)} ${figures[i]!.padStart(figureWidth)}${mark}`.trimEnd();
  });
  if (series.some((p) => p.partial)) lines.push('* may still be incomplete (Insights lags 36–48 h)');
  return lines.join('\n');
}
