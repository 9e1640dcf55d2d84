/** Weekly usage report schedules: the notice when one is set up or cancelled, and the list. */
import { describeWeekly } from '../schedules/recurrence';
import type { UsageSchedule } from '../schedules/types';
import { channelMention, escapeAndTruncate, escapeMrkdwn, userMention } from '../slack/mrkdwn';
import { type KnownBlock, type SlackMessage, LIMITS, context, header, section } from './blocks';
import { slackTime } from './usage-report-sessions';

function what(s: UsageSchedule): string {
  const by = s.breakdown ? ` with a breakdown by ${s.breakdown}` : '';
  return `weekly usage report #${s.id} of project *${escapeAndTruncate(s.projectName, 100)}*${by} in ${channelMention(s.channelId)}, ${escapeMrkdwn(describeWeekly(s))}`;
}

export function scheduleCreatedNotice(actor: string, s: UsageSchedule): SlackMessage {
  const sentence = `${userMention(actor)} set up the ${what(s)}.`;
  return {
    text: `Weekly usage report #${s.id} set up: ${escapeMrkdwn(describeWeekly(s))}`,
    blocks: [
      section(`:calendar: ${sentence}`),
      section(`The first one comes ${slackTime(s.nextDueAt)}: last week (Monday to Sunday, Pacific time) beside the week before, with the daily chart.`),
      context(
        `I post it only where I am a member: \`/invite @vidops\` in ${channelMention(s.channelId)} if I am not. \`/usage schedule list\` shows the schedules; \`/usage schedule cancel ${s.id}\` stops this one.`,
      ),
    ],
  };
}

export function scheduleCancelledNotice(actor: string, s: UsageSchedule): SlackMessage {
  const sentence = `${userMention(actor)} cancelled the ${what(s)}.`;
  return { text: `Weekly usage report #${s.id} cancelled`, blocks: [section(`:wastebasket: ${sentence}`)] };
}

function scheduleLine(s: UsageSchedule): string {
  const lines = [
    `*#${s.id}* ${channelMention(s.channelId)} · project *${escapeAndTruncate(s.projectName, 100)}* · ${escapeMrkdwn(describeWeekly(s))}${s.breakdown ? ` · by ${s.breakdown}` : ''}`,
    `Next: ${slackTime(s.nextDueAt)} · set up by ${userMention(s.createdBy)}`,
  ];
  if (s.lastDeliveredAt !== undefined && s.lastPeriod) lines.push(`Last sent ${slackTime(s.lastDeliveredAt)} (week of ${s.lastPeriod})`);
  if (s.lastError)
    lines.push(`:warning: Last attempt failed${s.failures > 0 ? ` (${s.failures} in a row; retrying)` : ''}: ${escapeAndTruncate(s.lastError, 300)}`);
  return lines.join('\n');
}

export function scheduleListMessage(schedules: readonly UsageSchedule[]): SlackMessage {
  if (schedules.length === 0) {
    return {
      text: 'No weekly usage reports are scheduled.',
      blocks: [
        section('No weekly usage reports are scheduled. `/usage schedule weekly` sets one up in this channel (Monday 09:00 Pacific unless you say otherwise).'),
      ],
    };
  }
  const blocks: KnownBlock[] = [header('Weekly usage reports')];
  for (const s of schedules.slice(0, LIMITS.messageBlocks - 2)) blocks.push(section(scheduleLine(s)));
  blocks.push(context('`/usage schedule cancel <id>` stops one. Only you can see this.'));
  return { text: `${schedules.length} weekly usage report(s) scheduled`, blocks };
}
