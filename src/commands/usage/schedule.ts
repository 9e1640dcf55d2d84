/**
 * `/usage schedule weekly [#channel] [day] [HH:MM] [time zone]`, `/usage schedule list`,
 * `/usage schedule cancel <id>`: weekly reports that post themselves (see src/schedules).
 * Words after `weekly` may come in any order; what is left out defaults to this channel,
 * Monday, 09:00, Pacific time (the time zone Insights counts days in).
 */
import { describeWeekly, DEFAULT_WEEKLY_TIME, nextOccurrence, parseTimeOfDay, parseTimeZone, parseWeekday, type WeeklyTime } from '../../schedules/recurrence';
import { code, escapeMrkdwn } from '../../slack/mrkdwn';
import { announce, replyEphemeral } from '../../slack/respond';
import type { BreakdownBy } from '../../usage';
import { warning } from '../../views/blocks';
import { INSIGHTS_NOT_CONFIGURED } from '../../views/usage-report';
import { scheduleCancelledNotice, scheduleCreatedNotice, scheduleListMessage } from '../../views/usage-report-schedules';
import { recordAudit } from '../../interaction/audit';
import type { CommandInvocation } from '../command';
import { resolveProject } from '../../interaction/session-ref';

export const SCHEDULE_ACTIONS = ['weekly', 'list', 'cancel'] as const;
export type ScheduleAction = (typeof SCHEDULE_ACTIONS)[number];

/** Active schedules a team may have: enough for every channel that wants one, not a flood. */
export const MAX_SCHEDULES_PER_TEAM = 25;

export interface WeeklySpec extends WeeklyTime {
  /** Undefined: the channel the command was run in. */
  channelId?: string;
}

export type SpecResult = { ok: true; spec: WeeklySpec } | { ok: false; problem: string };

const CHANNEL_LINK = /^<#([CG][A-Z0-9]+)(?:\|[^>]*)?>$/;
const CHANNEL_ID = /^[CG][A-Z0-9]{6,}$/;

/** Reads the words after `weekly`. */
export function parseWeeklySpec(words: readonly string[]): SpecResult {
  const spec: WeeklySpec = { ...DEFAULT_WEEKLY_TIME };
  const seen = new Set<string>();
  const once = (what: string, word: string): string | undefined => {
    if (seen.has(what)) return `${what} is given twice (“${word}”); give it once`;
    seen.add(what);
    return undefined;
  };
  for (const word of words) {
    const link = CHANNEL_LINK.exec(word);
    if (link || CHANNEL_ID.test(word)) {
      const twice = once('the channel', word);
      if (twice) return { ok: false, problem: twice };
      spec.channelId = link ? link[1]! : word;
      continue;
    }
    if (word.startsWith('#')) {
      return {
        ok: false,
        problem: `Slack sent “${word}” as plain text, so I cannot tell which channel it is. Run the command in that channel, or give its channel ID (in the channel’s details, at the bottom of About)`,
      };
    }
    const weekday = parseWeekday(word);
    if (weekday !== undefined) {
      const twice = once('the day', word);
      if (twice) return { ok: false, problem: twice };
      spec.weekday = weekday;
      continue;
    }
    const time = parseTimeOfDay(word);
    if (typeof time === 'object') return { ok: false, problem: time.error };
    if (time !== undefined) {
      const twice = once('the time', word);
      if (twice) return { ok: false, problem: twice };
      spec.minuteOfDay = time;
      continue;
    }
    const zone = parseTimeZone(word);
    if (zone !== undefined) {
      const twice = once('the time zone', word);
      if (twice) return { ok: false, problem: twice };
      spec.timeZone = zone;
      continue;
    }
    return {
      ok: false,
      problem: `“${word}” is not a channel, a day, a time or a time zone; for example \`weekly mon 09:00 Europe/Paris\``,
    };
  }
  return { ok: true, spec };
}

export interface ScheduleArgs {
  action: ScheduleAction;
  details?: string;
  by?: BreakdownBy;
  project?: string;
}

export async function runSchedule(ix: CommandInvocation, args: ScheduleArgs): Promise<void> {
  const words = (args.details ?? '').split(/\s+/).filter((w) => w.length > 0);
  switch (args.action) {
    case 'list':
      if (words.length > 0 || args.by || args.project) return replyEphemeral(ix, warning('`/usage schedule list` takes nothing more.'));
      return replyEphemeral(ix, scheduleListMessage(await ix.services.store.listSchedules(ix.teamId)));
    case 'cancel':
      return cancelSchedule(ix, words);
    case 'weekly':
      return createWeekly(ix, words, args);
  }
}

async function createWeekly(ix: CommandInvocation, words: readonly string[], args: ScheduleArgs): Promise<void> {
  const parsed = parseWeeklySpec(words);
  if (!parsed.ok) return replyEphemeral(ix, warning(`${escapeMrkdwn(parsed.problem)}.`));
  const channelId = parsed.spec.channelId ?? ix.channelId;
  if (!channelId) return replyEphemeral(ix, warning('Say which channel gets the report: run this in that channel, or give its channel ID.'));
  const project = await resolveProject(ix.services, { teamId: ix.teamId, channelId, userId: ix.userId, gate: ix.gate }, args.project);
  if (!project.ok) return replyEphemeral(ix, warning(project.message));
  const { projectName } = project.value;
  if (!ix.services.insights(projectName)) return replyEphemeral(ix, warning(INSIGHTS_NOT_CONFIGURED));

  const store = ix.services.store;
  const active = await store.listSchedules(ix.teamId);
  const when: WeeklyTime = { weekday: parsed.spec.weekday, minuteOfDay: parsed.spec.minuteOfDay, timeZone: parsed.spec.timeZone };
  const twin = active.find(
    (s) =>
      s.channelId === channelId &&
      s.projectName === projectName &&
      s.weekday === when.weekday &&
      s.minuteOfDay === when.minuteOfDay &&
      s.timeZone === when.timeZone &&
      s.breakdown === args.by,
  );
  if (twin) return replyEphemeral(ix, warning(`That report is already scheduled: #${twin.id}, ${escapeMrkdwn(describeWeekly(twin))}. Nothing was added.`));
  if (active.length >= MAX_SCHEDULES_PER_TEAM) {
    return replyEphemeral(
      ix,
      warning(`This workspace already has ${active.length} weekly reports, the most it may have. \`/usage schedule list\` shows them; cancel one first.`),
    );
  }

  const now = ix.services.clock();
  const schedule = await store.addSchedule({
    teamId: ix.teamId,
    channelId,
    projectName,
    ...when,
    ...(args.by ? { breakdown: args.by } : {}),
    createdBy: ix.userId,
    createdAt: now,
    nextDueAt: nextOccurrence(when, now),
  });
  await recordAudit(ix, { command: '/usage schedule weekly', target: `schedule ${schedule.id} in ${channelId}`, projectName, outcome: 'ok' });
  await announce(ix, scheduleCreatedNotice(ix.userId, schedule));
}

async function cancelSchedule(ix: CommandInvocation, words: readonly string[]): Promise<void> {
  const id = words.length === 1 ? Number(words[0]!.replace(/^#/, '')) : NaN;
  if (!Number.isSafeInteger(id) || id < 1) {
    return replyEphemeral(ix, warning('Say which schedule to cancel by its number, like `/usage schedule cancel 3`; `/usage schedule list` shows them.'));
  }
  const store = ix.services.store;
  const schedule = await store.getSchedule(ix.teamId, id);
  if (!schedule || schedule.cancelledAt !== undefined) {
    return replyEphemeral(ix, warning(`There is no active weekly report ${code(`#${id}`)}; \`/usage schedule list\` shows them.`));
  }
  await store.cancelSchedule(ix.teamId, id, ix.userId, ix.services.clock());
  await recordAudit(ix, {
    command: '/usage schedule cancel',
    target: `schedule ${id} in ${schedule.channelId}`,
    projectName: schedule.projectName,
    outcome: 'ok',
  });
  await announce(ix, scheduleCancelledNotice(ix.userId, schedule));
}
