/**
 * The usage report as a Slack message: totals beside the previous period, participant minutes by
 * tier, top SDK types, an optional breakdown, the daily chart (attached as a PNG, or as text bars
 * when the app cannot upload files), and how fresh the figures are. Pure: the caller passes
 * the clock reading. (Not `usage.ts`, which is the usage-error message of every command.)
 */
import { InsightsError } from '../api/insights';
import { escapeAndTruncate, escapeMrkdwn, userMention } from '../slack/mrkdwn';
import { dailySeries, describeRange, formatChange, formatMinutes, formatShare, textBars, type Total, type UsageReport } from '../usage';
import { type KnownBlock, type SlackMessage, LIMITS, context, fields, header, plain, section, warning } from './blocks';

/** Who the report is for and how old its figures are. */
export interface ReportContext {
  projectName: string;
  /** When Insights was asked (the cache keeps answers a while). */
  fetchedAt: number;
  now: number;
  cached: boolean;
  /** The person who asked, for reports posted in a channel. */
  askedBy?: string;
  /** Weekly report: its schedule id and who set it up. */
  schedule?: { id: number; createdBy: string };
}

/** The chart PNG the app uploaded (not shared), shown in the message by an image block. */
export interface ChartImage {
  slackFileId: string;
  title: string;
  altText: string;
}

/** `'text'`: the chart as text bars. An image: the PNG, plus the text bars when `bars` (a PNG drawn
 * without a font has no words on it). */
export type ChartPlacement = 'text' | { image: ChartImage; bars: boolean };

const MAX_LIST_LINES = 12;
/** Block Kit's limit on an image block's alt text and title. */
const IMAGE_TEXT_MAX = 2000;

/** "Fetched from Insights just now", "Cached: fetched 5 min ago". */
export function fetchedLine(ctx: Pick<ReportContext, 'fetchedAt' | 'now' | 'cached'>): string {
  const minutes = Math.max(0, Math.floor((ctx.now - ctx.fetchedAt) / 60_000));
  const age = minutes < 1 ? 'just now' : minutes < 60 ? `${minutes} min ago` : `${Math.floor(minutes / 60)} h ${minutes % 60} min ago`;
  return ctx.cached ? `Cached: fetched from Insights ${age}.` : `Fetched from Insights ${age}.`;
}

function totalText(title: string, total: Total): string {
  const changed = formatChange(total.change);
  const was = total.previous === null ? '' : ` (was ${formatMinutes(total.previous)})`;
  return `*${title}*\n*${formatMinutes(total.minutes)}*${changed ? `  ${changed}${was}` : ''}`;
}

function listLines(lines: readonly string[]): string {
  const shown = lines.slice(0, MAX_LIST_LINES);
  if (lines.length > shown.length) shown.push(`… and ${lines.length - shown.length} more`);
  return shown.join('\n');
}

function comparisonLine(report: UsageReport): string {
  if (!report.previous) return 'No comparison: the period before is older than Insights keeps.';
  return `Compared with ${escapeMrkdwn(report.previous.label)}: ${escapeMrkdwn(describeRange(report.previous))}.`;
}

/** The chart as a monospace block, for messages without the PNG. */
function textChart(report: UsageReport): string {
  const series = dailySeries(report);
  return `*${series.title}*\n\`\`\`\n${escapeMrkdwn(textBars(series.points))}\n\`\`\``;
}

function breakdownBlock(report: UsageReport): KnownBlock | undefined {
  const b = report.breakdown;
  if (!b) return undefined;
  if (b.rows.length === 0) return section(`*${b.title}*\nNo usage in this range.`);
  const lines = b.rows.map((r) => {
    const participant = r.participant === null ? '' : ` · ${formatMinutes(r.participant)} participant`;
    return `• ${escapeAndTruncate(r.label, 80)} — ${formatMinutes(r.minutes)} streamed (${formatShare(r.share)})${participant}`;
  });
  const note = b.rows.every((r) => r.participant === null) ? '\n_Insights does not split participant minutes by SDK or browser._' : '';
  return section(`*${b.title}* (published + subscribed minutes)\n${listLines(lines)}${note}`);
}

function imageBlock(image: ChartImage): KnownBlock {
  return {
    type: 'image',
    slack_file: { id: image.slackFileId },
    alt_text: image.altText.slice(0, IMAGE_TEXT_MAX),
    title: plain(image.title, IMAGE_TEXT_MAX),
  };
}

/** The report, with its chart as an image block (the uploaded PNG) or as text bars. */
export function usageReportMessage(report: UsageReport, ctx: ReportContext, chart: ChartPlacement): SlackMessage {
  const { totals } = report;
  const blocks: KnownBlock[] = [
    header(`Video usage · ${report.range.label}`),
    section(`*${escapeMrkdwn(report.description)}* (Pacific days) · project *${escapeAndTruncate(ctx.projectName, 100)}*\n${comparisonLine(report)}`),
  ];
  const figures = [
    ...(totals.participant ? [totalText('Participant minutes', totals.participant)] : []),
    totalText('Published minutes', totals.published),
    totalText('Subscribed minutes', totals.subscribed),
  ];
  blocks.push(fields(figures));
  if (report.tiers.length > 0) {
    const tiers = report.tiers.map((t) => `• ${t.label} — ${formatMinutes(t.minutes)} (${formatShare(t.share)})`);
    blocks.push(section(`*Participant minutes by tier*\n${listLines(tiers)}`));
  }
  if (report.topSdks.length > 0) {
    const sdks = report.topSdks.map((s) => `• ${escapeAndTruncate(s.label, 80)} — ${formatMinutes(s.minutes)} (${formatShare(s.share)})`);
    blocks.push(section(`*Top SDK types* (published + subscribed minutes)\n${listLines(sdks)}`));
  }
  const breakdown = breakdownBlock(report);
  if (breakdown) blocks.push(breakdown);
  if (chart !== 'text') blocks.push(imageBlock(chart.image));
  if (chart === 'text' || chart.bars) blocks.push(section(textChart(report)));

  const notes = [...report.notes.map(escapeMrkdwn), escapeMrkdwn(report.freshness.note), fetchedLine(ctx)];
  blocks.push(context(notes.join(' ')));
  blocks.push(context(footer(ctx)));

  return { text: fallbackText(report, ctx), blocks: blocks.slice(0, LIMITS.messageBlocks) };
}

function footer(ctx: ReportContext): string {
  const parts: string[] = [];
  if (ctx.schedule) {
    parts.push(`Weekly report #${ctx.schedule.id}, set up by ${userMention(ctx.schedule.createdBy)} · \`/usage schedule cancel ${ctx.schedule.id}\` stops it`);
  } else if (ctx.askedBy) {
    parts.push(`Asked by ${userMention(ctx.askedBy)}`);
  }
  parts.push('Days run midnight to midnight Pacific time, as Insights counts them');
  return parts.join(' · ');
}

/** The message's fallback text (notifications, screen readers): "Video usage for prod, last week
 * (Mon 2 Nov – Sun 8 Nov 2026): 420 participant minutes (+12% on the week before)". */
function fallbackText(report: UsageReport, ctx: ReportContext): string {
  const main = report.totals.participant ?? report.totals.streamed;
  const what = report.totals.participant ? 'participant minutes' : 'streamed minutes';
  const range = report.range.label === report.description ? report.description : `${report.range.label} (${report.description})`;
  const before = report.previous?.label;
  const changed = formatChange(main.change);
  const change = !before || !changed ? '' : main.change.kind === 'new' ? ` (none ${before})` : ` (${changed} on ${before})`;
  return `Video usage for ${ctx.projectName}, ${range}: ${formatMinutes(main.minutes).replace(/ min$/, '')} ${what}${change}`.slice(0, LIMITS.messageText);
}

/** Alt text and title of the chart file. */
export function chartTitle(report: UsageReport, projectName: string): { title: string; altText: string; filename: string } {
  const series = dailySeries(report);
  const days = series.points.map((p) => `${p.date} ${formatMinutes(p.minutes)}${p.partial ? ' (may be incomplete)' : ''}`).join('; ');
  return {
    title: `${series.title} · ${report.description} · ${projectName}`,
    altText: `${series.title}, ${report.description}: ${days}`.slice(0, 1000),
    filename: `usage-${projectName.replace(/[^A-Za-z0-9_-]+/g, '-')}-${report.range.firstDay}-to-${report.range.lastDay}.png`,
  };
}

/** What to do about an Insights failure, in a sentence or two. */
export function insightsProblem(error: unknown, ctx: { projectName: string; sessionData?: boolean }): string {
  const project = `*${escapeAndTruncate(ctx.projectName, 100)}*`;
  if (!(error instanceof InsightsError)) {
    return 'Something went wrong on our side while reading Insights; it was logged. Try again, or ask an admin to look at the vidops logs.';
  }
  const said = escapeMrkdwn(error.message);
  switch (error.code) {
    case 1014:
      return (
        `${said} Top sessions (\`/usage sessions\`), session details (\`/usage session <id>\`) and finding a stream’s connection come from ` +
        `per-session data, which project ${project} does not have. \`/usage\` (daily totals, tiers, SDKs, chart) works without it.`
      );
    case 1002:
      return `${said} Insights keeps daily usage for 90 days and per-session data for 21; days are Pacific time. Try \`/usage last week\`.`;
    case 1000:
    case 1001:
    case 1008:
    case 1011:
    case 1015:
    case 1019:
    case 1020:
    case 1021:
      return `${said} Ask an admin to check the API key and secret configured for project ${project}.`;
    default:
      return said;
  }
}

export function insightsErrorMessage(error: unknown, ctx: { projectName: string }): SlackMessage {
  return warning(insightsProblem(error, ctx));
}

/** Usage reports need the Insights URL; said once, the same way everywhere. */
export const INSIGHTS_NOT_CONFIGURED =
  'Usage reports read the Insights API, and this vidops has no Insights URL. Ask an admin to set `VIDEO_INSIGHTS_URL` (for example https://insights.video.example.com) and restart it.';
