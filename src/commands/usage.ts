/**
 * `/usage` — how many minutes the project used, from Insights:
 *   /usage [range] [--by sdk|country|browser] [--private]   the report (default: last week)
 *   /usage sessions [range] [--private]                      top sessions (Advanced Insights)
 *   /usage session <session>                                 one session's meetings and publishers
 *   /usage schedule weekly|list|cancel …                     weekly reports that post themselves
 *
 * Where answers go: reports (the usage report, top sessions) are posted in the channel, because a
 * manager asking in a channel asks for the people there too; the report comes as one message
 * with the daily chart attached as a PNG (text bars when the app may not upload files).
 * `--private` answers only the asker, chart in text. Lookups (one session, the schedule list)
 * answer only the asker, like every other read-only command.
 *
 * Answers are cached (see usage/answers.ts), so asking again costs no Insights call; every answer
 * says how fresh its figures are.
 */
import { z } from 'zod';
import { announce, replyEphemeral } from '../slack/respond';
import { escapeMrkdwn } from '../slack/mrkdwn';
import { parseRange, type BreakdownBy, type Dataset, type ParsedRange } from '../usage';
import { warning } from '../views/blocks';
import { INSIGHTS_NOT_CONFIGURED, insightsErrorMessage, usageReportMessage, type ReportContext } from '../views/usage-report';
import { sessionDetailMessage, topSessionsMessage } from '../views/usage-report-sessions';
import type { InsightsSource } from '../services';
import { defineCommand, defineSubcommand, type CommandInvocation } from './command';
import { type FlagSpec, projectFlag, projectName, sessionRef } from './grammar';
import { resolveProject, resolveSession } from '../interaction/session-ref';
import { loadReport, loadSessionDetail, loadTopSessions, SESSION_DETAIL_SIZES } from './usage/answers';
import { postReport } from './usage/deliver';
import { runSchedule, SCHEDULE_ACTIONS } from './usage/schedule';

const BY = ['sdk', 'country', 'browser'] as const satisfies readonly BreakdownBy[];

const byFlag: FlagSpec = {
  name: 'by',
  kind: 'value',
  valueLabel: 'sdk|country|browser',
  description: 'add a breakdown of the range by SDK type, country or browser',
};
const privateFlag: FlagSpec = {
  name: 'private',
  kind: 'boolean',
  description: 'answer only you (chart in text) instead of posting in the channel',
};

const rangeText = z.string().max(100, { error: 'that is too long for a date range' });
const breakdown = z.enum(BY, { error: 'choose sdk, country or browser' });

/** The project, its Insights source and the time, or why there is no answer. */
async function prepare(ix: CommandInvocation, project: string | undefined): Promise<{ projectName: string; source: InsightsSource; now: number } | undefined> {
  const resolved = await resolveProject(ix.services, ix, project);
  if (!resolved.ok) {
    await replyEphemeral(ix, warning(resolved.message));
    return undefined;
  }
  const source = ix.services.insights(resolved.value.projectName);
  if (!source) {
    await replyEphemeral(ix, warning(INSIGHTS_NOT_CONFIGURED));
    return undefined;
  }
  return { projectName: resolved.value.projectName, source, now: ix.services.clock() };
}

async function parsedRange(ix: CommandInvocation, text: string, now: number, dataset: Dataset): Promise<ParsedRange | undefined> {
  const parsed = parseRange(text, { now, dataset });
  if (parsed.ok) return parsed.value;
  await replyEphemeral(ix, warning(escapeMrkdwn(parsed.error)));
  return undefined;
}

async function insightsFailed(ix: CommandInvocation, error: unknown, projectName: string): Promise<void> {
  ix.logger.warn('insights call failed', { project: projectName, error });
  await replyEphemeral(ix, insightsErrorMessage(error, { projectName }));
}

const reportSub = defineSubcommand({
  summary: 'Minutes used in a range beside the period before, by tier and SDK, with a daily chart (posted in the channel)',
  role: 'viewer',
  args: {
    positionals: [
      {
        name: 'range',
        label: 'range',
        optional: true,
        rest: true,
        description:
          '`last week` (default), `this week`, `this month`, `last month`, `last 30 days`, `2026-10`, `2026-10-01..2026-10-31` — days in Pacific time',
      },
    ],
    flags: [byFlag, privateFlag, projectFlag],
    schema: z.object({ range: rangeText.optional(), by: breakdown.optional(), private: z.boolean().optional(), project: projectName.optional() }),
    examples: ['', 'last 30 days --by sdk', 'this month --private', '2026-10-01..2026-10-31 --project prod'],
  },
  target: (args) => args.range ?? 'last week',
  async run(ix, args) {
    const ready = await prepare(ix, args.project);
    if (!ready) return;
    const parsed = await parsedRange(ix, args.range ?? '', ready.now, 'aggregates');
    if (!parsed) return;
    let answer;
    try {
      answer = await loadReport(ix.services.usageCache, ready.source, { projectName: ready.projectName, parsed, by: args.by }, ready.now);
    } catch (error) {
      return insightsFailed(ix, error, ready.projectName);
    }
    const ctx: ReportContext = { projectName: ready.projectName, fetchedAt: answer.fetchedAt, now: ready.now, cached: answer.cached, askedBy: ix.userId };
    if (args.private || !ix.channelId) return replyEphemeral(ix, usageReportMessage(answer.value.report, ctx, 'text'));
    await postReport(ix, answer.value, ctx, { channelId: ix.channelId, ephemeralFallback: true });
  },
});

const sessionsSub = defineSubcommand({
  name: 'sessions',
  summary: 'The sessions with the most participant minutes in a range (Advanced Insights; posted in the channel)',
  role: 'viewer',
  args: {
    positionals: [
      {
        name: 'range',
        label: 'range',
        optional: true,
        rest: true,
        description: '`last 7 days` (default), `7d`, `yesterday`, `this week`… within the 21 days Insights keeps sessions',
      },
    ],
    flags: [privateFlag, projectFlag],
    schema: z.object({ range: rangeText.optional(), private: z.boolean().optional(), project: projectName.optional() }),
    examples: ['', '7d', 'yesterday --private'],
  },
  target: (args) => args.range ?? 'last 7 days',
  async run(ix, args) {
    const ready = await prepare(ix, args.project);
    if (!ready) return;
    const parsed = await parsedRange(ix, args.range ?? 'last 7 days', ready.now, 'sessions');
    if (!parsed) return;
    let answer;
    try {
      answer = await loadTopSessions(ix.services.usageCache, ready.source, { projectName: ready.projectName, range: parsed.range }, ready.now);
    } catch (error) {
      return insightsFailed(ix, error, ready.projectName);
    }
    const ctx: ReportContext = { projectName: ready.projectName, fetchedAt: answer.fetchedAt, now: ready.now, cached: answer.cached, askedBy: ix.userId };
    const message = topSessionsMessage(answer.value, parsed.range, ctx);
    if (args.private || !ix.channelId) return replyEphemeral(ix, message);
    await announce(ix, message);
  },
});

const sessionSub = defineSubcommand({
  name: 'session',
  summary: 'One session’s meetings, publishers (connection and stream IDs) and bitrates (Advanced Insights)',
  role: 'viewer',
  args: {
    positionals: [{ name: 'session', label: 'session', description: 'session ID or alias' }],
    flags: [projectFlag],
    schema: z.object({ session: sessionRef, project: projectName.optional() }),
    examples: ['2_MX40NzEyfn5-abc', 'standup'],
  },
  target: (args) => args.session,
  async run(ix, args) {
    const resolved = await resolveSession(ix.services, ix, args.session, args.project);
    if (!resolved.ok) return replyEphemeral(ix, warning(resolved.message));
    const { projectName, sessionId } = resolved.value;
    const source = ix.services.insights(projectName);
    if (!source) return replyEphemeral(ix, warning(INSIGHTS_NOT_CONFIGURED));
    const now = ix.services.clock();
    let answer;
    try {
      answer = await loadSessionDetail(ix.services.usageCache, source, { projectName, sessionId }, now);
    } catch (error) {
      return insightsFailed(ix, error, projectName);
    }
    if (!answer.value)
      return replyEphemeral(ix, warning(`Insights has no data for session ${escapeMrkdwn(sessionId)} yet: it appears about 5 minutes after a meeting.`));
    const ctx: ReportContext = { projectName, fetchedAt: answer.fetchedAt, now, cached: answer.cached };
    await replyEphemeral(ix, sessionDetailMessage(answer.value, ctx, SESSION_DETAIL_SIZES));
  },
});

const scheduleSub = defineSubcommand({
  name: 'schedule',
  summary: 'Post last week’s report by itself every week; list or cancel those reports',
  role: (args) => (args.action === 'list' ? 'viewer' : 'moderator'),
  roleLabel: 'viewer to list, moderator to schedule or cancel',
  args: {
    positionals: [
      { name: 'action', label: 'weekly|list|cancel', description: '`weekly` sets a report up, `list` shows them, `cancel <id>` stops one' },
      {
        name: 'details',
        label: 'details',
        optional: true,
        rest: true,
        description:
          'for `weekly`, in any order: a channel ID (default: here), a day (default `mon`), a time `HH:MM` (default `09:00`), a time zone (default Pacific); for `cancel`, the id',
      },
    ],
    flags: [byFlag, projectFlag],
    schema: z.object({
      action: z.enum(SCHEDULE_ACTIONS, { error: 'say weekly, list or cancel' }),
      details: z.string().max(200, { error: 'that is too long' }).optional(),
      by: breakdown.optional(),
      project: projectName.optional(),
    }),
    examples: ['weekly', 'weekly mon 09:00 Europe/Paris --by sdk', 'weekly C0123ABCDEF fri 16:30 America/New_York', 'list', 'cancel 3'],
  },
  target: (args) => `${args.action}${args.details ? ` ${args.details}` : ''}`,
  run: runSchedule,
});

export const usageCommand = defineCommand({
  command: '/usage',
  summary: 'How many minutes the project used: reports with a chart, top sessions, weekly reports.',
  subcommands: [reportSub, sessionsSub, sessionSub, scheduleSub],
});
