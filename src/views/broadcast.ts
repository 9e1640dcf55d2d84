/**
 * Broadcasts in lists, choices and notices. The card itself is the kind's (src/kinds/broadcast.ts).
 *
 * RTMP stream names are stream keys: no builder here reads `streamName`.
 */
import { type BroadcastView, footer, sessionText, slackDate, stopButton } from '../kinds/broadcast';
import { code, escapeAndTruncate, escapeMrkdwn, userMention } from '../slack/mrkdwn';
import { type Button, type KnownBlock, type SlackMessage, LIMITS, actions, button, context, header, section, stripMrkdwn } from './blocks';
import { ACTION } from './ids';
import type { SessionRef } from './notices';

/** Broadcasts listed in one message (one block each; a message holds 50). */
export const MAX_BROADCASTS_IN_LIST = 20;

/** One line about the outputs: `HLS live · 2 RTMP (1 live, 1 connecting)`. */
export function outputsSummary(broadcast: BroadcastView): string {
  const urls = broadcast.broadcastUrls;
  const parts: string[] = [];
  if (urls && (urls.hls !== undefined || urls.hlsStatus !== undefined)) parts.push(`HLS ${escapeAndTruncate(urls.hlsStatus ?? 'connecting', 20)}`);
  const rtmp = urls?.rtmp ?? [];
  if (rtmp.length > 0) {
    const counts = new Map<string, number>();
    for (const o of rtmp) counts.set(o.status ?? 'connecting', (counts.get(o.status ?? 'connecting') ?? 0) + 1);
    const detail = [...counts.entries()].map(([status, n]) => `${n} ${escapeAndTruncate(status, 20)}`).join(', ');
    parts.push(`${rtmp.length} RTMP (${detail})`);
  }
  return parts.length > 0 ? parts.join(' · ') : 'no outputs';
}

function listLine(broadcast: BroadcastView, alias?: string): string {
  const tag = broadcast.multiBroadcastTag ? ` · tag ${code(broadcast.multiBroadcastTag)}` : '';
  return `${code(broadcast.id)}\nSession ${alias ? code(alias) : code(broadcast.sessionId)}${tag} · since ${slackDate(broadcast.createdAt)}\n${outputsSummary(broadcast)}`;
}

/** `/broadcast list`: the broadcasts running in a project (or one session), each with Stop. */
export function broadcastListMessage(
  projectName: string,
  broadcasts: readonly BroadcastView[],
  options: { session?: SessionRef; aliases?: ReadonlyMap<string, string>; total?: number } = {},
): SlackMessage {
  const where = options.session
    ? `session ${options.session.alias ? code(options.session.alias) : code(options.session.sessionId)}`
    : `project *${escapeAndTruncate(projectName, 100)}*`;
  if (broadcasts.length === 0) {
    return { text: 'No broadcast is running', blocks: [section(`No broadcast is running in ${where}. Start one with \`/broadcast start\`.`)] };
  }
  const total = options.total ?? broadcasts.length;
  const count = total === 1 ? '1 broadcast' : `${total} broadcasts`;
  const blocks: KnownBlock[] = [header('Live broadcasts'), context(`${count} running in ${where}`)];
  for (const broadcast of broadcasts.slice(0, MAX_BROADCASTS_IN_LIST)) {
    const alias = options.aliases?.get(broadcast.sessionId);
    blocks.push(section(listLine(broadcast, alias), stopButton(broadcast, { projectName, alias }, 'Stop')));
  }
  if (total > MAX_BROADCASTS_IN_LIST) {
    blocks.push(context(`… and ${total - MAX_BROADCASTS_IN_LIST} more not shown. Name a session to narrow the list: \`/broadcast list <session>\`.`));
  }
  blocks.push(context('Only you can see this. `/broadcast show <id>` gives the details of one.'));
  return { text: `${count} running`, blocks: blocks.slice(0, LIMITS.messageBlocks) };
}

const cancelButton = (): Button => button({ actionId: ACTION.cancel, text: 'Cancel' });

/** The context line of a `/broadcast stop` card: the raw session ID only there, when an alias named it. */
function onlyYou(broadcast: { sessionId: string }, ctx: { alias?: string }): string {
  return ctx.alias ? `Only you can see this. Session ID ${code(broadcast.sessionId)}` : 'Only you can see this.';
}

/** `/broadcast stop …`: the one question for one broadcast (ephemeral); its button acts. */
export function stopConfirmCard(broadcast: BroadcastView, ctx: { projectName: string; alias?: string }): SlackMessage {
  const text = `:warning: *Stop broadcast ${code(broadcast.id)}* of session ${sessionText(broadcast, ctx)}? ${outputsSummary(broadcast)} — every output ends at once.`;
  return {
    text: `Stop broadcast ${broadcast.id}?`,
    blocks: [section(text), actions([stopButton(broadcast, ctx, 'Stop broadcast', 'typed'), cancelButton()]), context(onlyYou(broadcast, ctx))],
  };
}

/** `/broadcast stop` when the session runs several broadcasts: which one? (ephemeral) */
export function stopChoiceCard(broadcasts: readonly BroadcastView[], ctx: { projectName: string; alias?: string; sessionId: string }): SlackMessage {
  const session = ctx.alias ? code(ctx.alias) : code(ctx.sessionId);
  const blocks: KnownBlock[] = [section(`:warning: Session ${session} runs ${broadcasts.length} broadcasts. Which one should stop?`)];
  for (const broadcast of broadcasts.slice(0, MAX_BROADCASTS_IN_LIST)) {
    blocks.push(section(listLine(broadcast, ctx.alias), stopButton(broadcast, ctx, 'Stop this one', 'typed')));
  }
  blocks.push(actions([cancelButton()]));
  blocks.push(context(onlyYou(ctx, ctx)));
  return { text: `Which broadcast of ${escapeMrkdwn(ctx.alias ?? ctx.sessionId)} should stop?`, blocks: blocks.slice(0, LIMITS.messageBlocks) };
}

function notice(
  icon: string,
  sentence: string,
  broadcast: { id: string; sessionId: string },
  ctx: { projectName: string; alias?: string },
  extra?: string,
): SlackMessage {
  return { text: stripMrkdwn(sentence), blocks: [section(`${icon} ${sentence}`), ...(extra ? [section(extra)] : []), context(footer(broadcast, ctx))] };
}

export function broadcastStoppedNotice(
  actor: string,
  broadcast: { id: string; sessionId: string },
  ctx: { projectName: string; alias?: string },
): SlackMessage {
  return notice(
    ':black_square_for_stop:',
    `${userMention(actor)} stopped broadcast ${code(broadcast.id)} of session ${sessionText(broadcast, ctx)}.`,
    broadcast,
    ctx,
  );
}

export function broadcastLayoutNotice(
  actor: string,
  broadcast: { id: string; sessionId: string },
  ctx: { projectName: string; alias?: string },
  layout: { type: string; screenshareType?: string; stylesheet?: string },
): SlackMessage {
  const share = layout.screenshareType ? ` (while someone shares a screen: *${escapeMrkdwn(layout.screenshareType)}*)` : '';
  const css = layout.stylesheet ? ' with a custom stylesheet' : '';
  return notice(
    ':frame_with_picture:',
    `${userMention(actor)} changed the layout of broadcast ${code(broadcast.id)} to *${escapeMrkdwn(layout.type)}*${share}${css}.`,
    broadcast,
    ctx,
    // No Undo: the service does not tell which layout a broadcast had.
    `To undo it, set the layout it had with \`/broadcast layout ${broadcast.id} <layout>\`: vidops cannot read the one before.`,
  );
}

export function broadcastStreamNotice(
  actor: string,
  change: 'added' | 'removed',
  broadcast: { id: string; sessionId: string },
  ctx: { projectName: string; alias?: string },
  streamId: string,
  media?: 'audio only' | 'video only',
): SlackMessage {
  const sentence =
    change === 'added'
      ? `${userMention(actor)} added stream ${code(streamId)} to broadcast ${code(broadcast.id)}${media ? ` (${media})` : ''}.`
      : `${userMention(actor)} removed stream ${code(streamId)} from broadcast ${code(broadcast.id)}.`;
  return notice(change === 'added' ? ':heavy_plus_sign:' : ':heavy_minus_sign:', sentence, broadcast, ctx);
}
