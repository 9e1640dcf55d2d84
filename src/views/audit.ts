/** Audit entries as Slack shows them: one line each, in the audit channel and in `/video audit`. */
import type { AuditEntry, NewAuditEntry } from '../store/types';
import { channelMention, code, escapeAndTruncate, userMention } from '../slack/mrkdwn';
import { type KnownBlock, type SlackMessage, LIMITS, context, header, section } from './blocks';

const OUTCOME_ICON: Record<AuditEntry['outcome'], string> = {
  ok: ':white_check_mark:',
  denied: ':no_entry:',
  error: ':warning:',
};

function when(at: number): string {
  const seconds = Math.floor(at / 1000);
  const iso = new Date(at).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
  return `<!date^${seconds}^{date_short_pretty} {time}|${iso}>`;
}

export function auditLine(entry: NewAuditEntry): string {
  const where = entry.channelId ? ` in ${channelMention(entry.channelId)}` : '';
  const target = entry.target ? ` ${escapeAndTruncate(entry.target, 300)}` : '';
  const project = entry.projectName ? ` · project *${escapeAndTruncate(entry.projectName, 60)}*` : '';
  const error = entry.error ? ` — ${escapeAndTruncate(entry.error, 200)}` : '';
  return `${OUTCOME_ICON[entry.outcome]} ${when(entry.at)} ${userMention(entry.userId)} ${code(entry.command)}${target}${where}${project} (${entry.outcome}${error})`;
}

/** The message posted to the audit channel for one entry. */
export function auditChannelMessage(entry: NewAuditEntry): SlackMessage {
  return { text: `vidops audit: ${entry.command} ${entry.outcome}`, blocks: [context(auditLine(entry))] };
}

/** `/video audit`: the newest entries first, packed into sections. */
export function auditListMessage(entries: readonly AuditEntry[]): SlackMessage {
  if (entries.length === 0) {
    return { text: 'No audit entries yet', blocks: [section('No audited actions yet.')] };
  }
  const blocks: KnownBlock[] = [header(`Latest ${entries.length} audited actions`)];
  let chunk = '';
  for (const entry of entries) {
    const line = auditLine(entry);
    if (chunk.length + line.length + 1 > LIMITS.sectionText) {
      blocks.push(section(chunk));
      chunk = '';
    }
    chunk += (chunk ? '\n' : '') + line;
  }
  if (chunk) blocks.push(section(chunk));
  return { text: `Latest ${entries.length} audited actions`, blocks: blocks.slice(0, LIMITS.messageBlocks) };
}
