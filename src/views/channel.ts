/** Answers of `/video alias|unalias|aliases|use`: names for sessions and the channel's defaults. */
import type { SessionAlias } from '../store/types';
import { code, escapeAndTruncate, userMention } from '../slack/mrkdwn';
import { type KnownBlock, type SlackMessage, LIMITS, context, header, section, stripMrkdwn } from './blocks';

function project(name: string): string {
  return `*${escapeAndTruncate(name, 100)}*`;
}

function simple(text: string, footer?: string): SlackMessage {
  const blocks: KnownBlock[] = [section(text)];
  if (footer) blocks.push(context(footer));
  return { text: stripMrkdwn(text), blocks };
}

export function aliasSetNotice(actor: string, alias: SessionAlias, previous?: SessionAlias): SlackMessage {
  const was = previous && previous.sessionId !== alias.sessionId ? ` (it named ${code(previous.sessionId)} before)` : '';
  return simple(
    `:label: ${userMention(actor)} named session ${code(alias.sessionId)} ${code(alias.alias)}${was}. Use ${code(alias.alias)} wherever a session is asked for.`,
    `Project ${project(alias.projectName)}`,
  );
}

export function aliasRemovedNotice(actor: string, alias: SessionAlias): SlackMessage {
  return simple(
    `:label: ${userMention(actor)} removed the alias ${code(alias.alias)} (session ${code(alias.sessionId)}).`,
    `Project ${project(alias.projectName)}`,
  );
}

export function aliasesMessage(aliases: readonly SessionAlias[]): SlackMessage {
  if (aliases.length === 0) {
    return simple('No aliases yet. Name a session with `/video alias <name> <session-id>`, or create one with `/session create <name>`.');
  }
  const blocks: KnownBlock[] = [header('Session aliases')];
  let chunk = '';
  for (const a of aliases) {
    const line = `${code(a.alias)} → ${code(a.sessionId)} · ${project(a.projectName)}`;
    if (chunk.length + line.length + 1 > LIMITS.sectionText) {
      blocks.push(section(chunk));
      chunk = '';
    }
    chunk += (chunk ? '\n' : '') + line;
  }
  if (chunk) blocks.push(section(chunk));
  return { text: `${aliases.length} session aliases`, blocks: blocks.slice(0, LIMITS.messageBlocks) };
}

export interface ChannelDefaults {
  projectName: string;
  projectSource: 'channel' | 'configured' | 'default' | 'flag' | 'alias';
  sessionId?: string;
  alias?: string;
}

const PROJECT_SOURCE: Record<ChannelDefaults['projectSource'], string> = {
  channel: 'set with `/video use --project`',
  configured: 'from the vidops configuration',
  default: 'the default project',
  flag: 'given with --project',
  alias: 'the alias’s project',
};

export function channelDefaultsMessage(d: ChannelDefaults): SlackMessage {
  const session = d.sessionId
    ? `Session: ${d.alias ? `${code(d.alias)} (${code(d.sessionId)})` : code(d.sessionId)}`
    : 'Session: none — commands here need one named, or set it with `/video use <session-id|alias>`';
  return simple(`*This channel*\nProject: ${project(d.projectName)} (${PROJECT_SOURCE[d.projectSource]})\n${session}`);
}

export function channelBoundNotice(actor: string, d: { projectName: string; sessionId?: string; alias?: string }): SlackMessage {
  const what = d.sessionId
    ? `made ${d.alias ? `${code(d.alias)} (${code(d.sessionId)})` : `session ${code(d.sessionId)}`} this channel’s default session`
    : `made ${project(d.projectName)} this channel’s project`;
  return simple(`:pushpin: ${userMention(actor)} ${what}. Commands here use it unless told otherwise.`, `Project ${project(d.projectName)}`);
}
