/** The App Home tab: your role, the commands, the team's aliases and the sessions used lately. */
import { type CommandGrammar, usageLine } from '../commands/grammar';
import { type Role, roleWithArticle } from '../rbac/roles';
import type { RecentSession, SessionAlias } from '../store/types';
import { code, escapeAndTruncate, escapeMrkdwn } from '../slack/mrkdwn';
import { type HomeView, type KnownBlock, LIMITS, context, divider, header, section } from './blocks';

export interface HomeData {
  role: Role;
  commands: readonly CommandGrammar[];
  aliases: readonly SessionAlias[];
  recent: readonly RecentSession[];
  now: number;
  /** What the workspace is watching (views/dashboard.ts), shown first. */
  dashboard?: readonly KnownBlock[];
}

function ago(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}

export function homeView(data: HomeData): HomeView {
  const blocks: KnownBlock[] = [
    header('vidops'),
    section(`Operate video sessions from Slack. You are ${roleWithArticle(data.role)}.`),
    divider(),
    ...(data.dashboard && data.dashboard.length > 0 ? [...data.dashboard, divider()] : []),
    header('Commands'),
  ];
  const lines = data.commands.flatMap((c) => c.subcommands.map((s) => `\`${escapeMrkdwn(usageLine(c.command, s))}\``));
  let chunk = '';
  for (const line of lines) {
    if (chunk.length + line.length + 1 > LIMITS.sectionText) {
      blocks.push(section(chunk));
      chunk = '';
    }
    chunk += (chunk ? '\n' : '') + line;
  }
  if (chunk) blocks.push(section(chunk));
  blocks.push(context('Add `help` to a command for details, e.g. `/mute help`.'));

  blocks.push(divider(), header('Aliases'));
  blocks.push(
    section(
      data.aliases.length > 0
        ? data.aliases
            .slice(0, 15)
            .map((a) => `${code(a.alias)} → ${code(a.sessionId)} · *${escapeAndTruncate(a.projectName, 60)}*`)
            .join('\n')
        : 'None yet: `/video alias <name> <session-id>`.',
    ),
  );
  blocks.push(divider(), header('Sessions used lately'));
  blocks.push(
    section(
      data.recent.length > 0
        ? data.recent
            .slice(0, 10)
            .map((r) => `${code(r.sessionId)} · *${escapeAndTruncate(r.projectName, 60)}* · ${ago(data.now - r.usedAt)}`)
            .join('\n')
        : 'None yet.',
    ),
  );
  return { type: 'home', blocks: blocks.slice(0, LIMITS.modalBlocks) };
}
