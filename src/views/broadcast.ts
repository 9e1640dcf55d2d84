/**
 * Broadcast cards and notices. The card is posted in the channel when a broadcast starts and
 * kept up to date by the poller; `/broadcast show` and `list` reuse its parts.
 *
 * RTMP stream names are stream keys: no builder here reads `streamName`. An output shows its id,
 * its server's host and its status, and says its key is hidden.
 */
import { z } from 'zod';
import type { Broadcast } from '../api';
import { rtmpHost } from '../commands/broadcast/rtmp';
import { formatDuration } from '../poller/messages';
import type { BroadcastSnapshot, GoneSnapshot } from '../poller/snapshot';
import { code, escapeAndTruncate, escapeMrkdwn, userMention } from '../slack/mrkdwn';
import { type Button, type KnownBlock, type SlackMessage, LIMITS, actions, button, context, fields, header, section, stripMrkdwn } from './blocks';
import { ACTION } from './ids';
import type { SessionRef } from './notices';
import { encodeValue } from './values';

/** What the Stop buttons carry: project, session (and its alias), broadcast, who started it. */
export const BroadcastTargetSchema = z.object({
  p: z.string().min(1),
  s: z.string().min(1),
  a: z.string().optional(),
  b: z.string().min(1),
  u: z.string().optional(),
});
export type BroadcastTarget = z.output<typeof BroadcastTargetSchema>;

/** The broadcast fields the views read (the adapter's `Broadcast`, minus what they never touch). */
export type BroadcastView = Pick<Broadcast, 'id' | 'sessionId' | 'createdAt' | 'status' | 'resolution' | 'streamMode' | 'hasAudio' | 'hasVideo'> &
  Partial<Pick<Broadcast, 'maxDuration' | 'maxBitrate' | 'multiBroadcastTag' | 'settings' | 'streams'>> & {
    broadcastUrls?: {
      hls?: string;
      hlsStatus?: string;
      rtmp: readonly { id?: string; serverUrl: string; status?: string }[];
    } | null;
  };

export interface BroadcastCardContext {
  projectName: string;
  /** The alias the session was named by, if any. */
  alias?: string;
  /** Slack user who started it through vidops, when known. */
  startedBy?: string;
  /** Slack user who stopped it through vidops, when known. */
  stoppedBy?: string;
  /** The HLS mode asked for at start (start responses do not echo `settings`). */
  hls?: { dvr?: boolean; lowLatency?: boolean };
  /** Show the Stop button while the broadcast runs (default true). */
  stopButton?: boolean;
}

/** Broadcasts listed in one message (one block each; a message holds 50). */
export const MAX_BROADCASTS_IN_LIST = 20;

const HLS_STATUS: Record<string, string> = {
  connecting: ':hourglass_flowing_sand: connecting',
  ready: ':large_yellow_circle: ready, waiting for the CDN',
  live: ':large_green_circle: live',
  ended: ':black_circle: ended (the source stream ended)',
  error: ':x: error',
};

const RTMP_STATUS: Record<string, string> = {
  connecting: ':hourglass_flowing_sand: connecting',
  live: ':large_green_circle: live',
  offline: ':red_circle: offline (server unreachable, or it rejected the connection or the key)',
  error: ':x: error',
};

function statusText(map: Record<string, string>, status: string | undefined): string {
  if (!status) return ':hourglass_flowing_sand: connecting';
  return map[status] ?? escapeAndTruncate(status, 40);
}

/** Slack renders the date in the reader's time zone; the fallback is UTC. */
export function slackDate(ms: number, format = '{date_short_pretty} {time}'): string {
  const iso = new Date(ms).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
  return `<!date^${Math.floor(ms / 1000)}^${format}|${iso}>`;
}

function sessionText(broadcast: { sessionId: string }, ctx: { alias?: string }): string {
  return ctx.alias ? code(ctx.alias) : code(broadcast.sessionId);
}

function hlsMode(broadcast: BroadcastView, ctx: BroadcastCardContext): string {
  const settings = broadcast.settings?.hls ?? ctx.hls;
  const dvr = settings?.dvr ?? broadcast.broadcastUrls?.hls?.includes('?DVR') ?? false;
  if (dvr) return ' · DVR (viewers can rewind)';
  if (settings?.lowLatency) return ' · low latency';
  return '';
}

function hlsSection(broadcast: BroadcastView, ctx: BroadcastCardContext): string | undefined {
  const urls = broadcast.broadcastUrls;
  if (!urls || (urls.hls === undefined && urls.hlsStatus === undefined)) return undefined;
  const lines = [`*HLS* ${statusText(HLS_STATUS, urls.hlsStatus)}${hlsMode(broadcast, ctx)}`];
  if (urls.hls) lines.push(escapeAndTruncate(urls.hls, 1000));
  if (broadcast.status === 'started' && urls.hlsStatus !== 'live') lines.push('_Usable about 20 s after start._');
  return lines.join('\n');
}

function rtmpLines(outputs: readonly { id?: string; serverUrl: string; status?: string }[]): string {
  return outputs
    .slice(0, 5)
    .map((o, i) => `• ${code(o.id ?? `#${i + 1}`)} ${escapeAndTruncate(rtmpHost(o.serverUrl), 200)} — ${statusText(RTMP_STATUS, o.status)} · _key hidden_`)
    .join('\n');
}

function rtmpSection(broadcast: BroadcastView): string | undefined {
  const outputs = broadcast.broadcastUrls?.rtmp ?? [];
  if (outputs.length === 0) return undefined;
  const title = outputs.length === 1 ? '*RTMP output*' : `*RTMP outputs* (${outputs.length})`;
  return `${title}\n${rtmpLines(outputs)}`;
}

function detailFields(broadcast: BroadcastView, ctx: BroadcastCardContext): string[] {
  const items = [`*Resolution*\n${escapeAndTruncate(broadcast.resolution ?? '640x480', 40)}`];
  const maxDuration = broadcast.maxDuration ?? 14_400;
  const endsBy = broadcast.status === 'started' ? ` (ends by ${slackDate(broadcast.createdAt + maxDuration * 1000, '{time}')} at the latest)` : '';
  items.push(`*Max duration*\n${formatDuration(maxDuration)}${endsBy}`);
  items.push(`*Started*\n${slackDate(broadcast.createdAt)}${ctx.startedBy ? ` by ${userMention(ctx.startedBy)}` : ''}`);
  items.push(`*Streams*\n${broadcast.streamMode === 'manual' ? `chosen by hand (${(broadcast.streams ?? []).length} selected)` : 'everyone publishing'}`);
  if (broadcast.hasAudio === false || broadcast.hasVideo === false) items.push(`*Media*\n${broadcast.hasVideo === false ? 'audio only' : 'video only'}`);
  if (broadcast.multiBroadcastTag) items.push(`*Tag*\n${code(broadcast.multiBroadcastTag)}`);
  if (broadcast.maxBitrate) items.push(`*Max bitrate*\n${formatBitrate(broadcast.maxBitrate)}`);
  return items;
}

/** "2.5 Mbit/s", "800 kbit/s". */
export function formatBitrate(bps: number): string {
  if (bps >= 1_000_000) return `${(bps / 1_000_000).toFixed(2).replace(/\.?0+$/, '')} Mbit/s`;
  return `${Math.round(bps / 1000)} kbit/s`;
}

export function broadcastTarget(broadcast: { id: string; sessionId: string }, ctx: { projectName: string; alias?: string; startedBy?: string }): BroadcastTarget {
  return {
    p: ctx.projectName,
    s: broadcast.sessionId,
    b: broadcast.id,
    ...(ctx.alias ? { a: ctx.alias } : {}),
    ...(ctx.startedBy ? { u: ctx.startedBy } : {}),
  };
}

export function stopButton(broadcast: { id: string; sessionId: string }, ctx: { projectName: string; alias?: string; startedBy?: string }, text = 'Stop broadcast'): Button {
  return button({
    actionId: ACTION.broadcastStop,
    text,
    style: 'danger',
    value: encodeValue(broadcastTarget(broadcast, ctx)),
    accessibilityLabel: `Stop broadcast ${broadcast.id}`,
    confirm: {
      title: 'Stop the broadcast?',
      text: `Broadcast ${code(broadcast.id)} of session ${sessionText(broadcast, ctx)} ends at once for every viewer and RTMP destination.`,
      confirm: 'Stop broadcast',
      deny: 'Keep it running',
      danger: true,
    },
  });
}

function footer(broadcast: { id: string; sessionId: string }, ctx: { projectName: string; alias?: string }): string {
  const session = ctx.alias ? ` · session ID ${code(broadcast.sessionId)}` : '';
  return `Project *${escapeAndTruncate(ctx.projectName, 100)}*${session} · broadcast ${code(broadcast.id)}`;
}

/**
 * The broadcast card: status, the HLS URL and status, each RTMP output (id, host, status — never
 * its key), resolution, maximum duration, who started it, and a Stop button while it runs.
 */
export function broadcastCard(broadcast: BroadcastView, ctx: BroadcastCardContext): SlackMessage {
  const running = broadcast.status === 'started';
  const session = sessionText(broadcast, ctx);
  let lead: string;
  if (running) {
    lead = ctx.startedBy
      ? `:red_circle: ${userMention(ctx.startedBy)} started a live broadcast of session ${session}.`
      : `:red_circle: Session ${session} is broadcasting live.`;
  } else {
    lead = `:black_square_for_stop: The broadcast of session ${session} has stopped${ctx.stoppedBy ? ` (stopped by ${userMention(ctx.stoppedBy)})` : ''}.`;
  }
  const blocks: KnownBlock[] = [header(running ? 'Live broadcast' : 'Broadcast stopped'), section(lead)];
  const hls = hlsSection(broadcast, ctx);
  const rtmp = rtmpSection(broadcast);
  if (hls) blocks.push(section(hls));
  if (rtmp) blocks.push(section(rtmp));
  if (!hls && !rtmp && !running) blocks.push(section('Its outputs are closed.'));
  blocks.push(fields(detailFields(broadcast, ctx)));
  blocks.push(context(footer(broadcast, ctx)));
  if (running && ctx.stopButton !== false) blocks.push(actions([stopButton(broadcast, ctx)]));
  const text = running
    ? `Live broadcast of session ${escapeMrkdwn(ctx.alias ?? broadcast.sessionId)}${ctx.startedBy ? ` started by ${userMention(ctx.startedBy)}` : ''}`
    : `The broadcast of session ${escapeMrkdwn(ctx.alias ?? broadcast.sessionId)} has stopped`;
  return { text, blocks };
}

/**
 * The card redrawn from what the poller keeps of a broadcast (its snapshot and the watch), for
 * the poller's card builders. A snapshot holds statuses only — no HLS URL, server URL or stream
 * key — so the card points to `/broadcast show` for the URL; the Stop button stays while it runs.
 */
export function broadcastCardFromSnapshot(
  watch: { resourceId: string; sessionId: string; projectName: string },
  snapshot: BroadcastSnapshot | GoneSnapshot,
): SlackMessage {
  const broadcast = { id: watch.resourceId, sessionId: watch.sessionId };
  const ctx = { projectName: watch.projectName };
  const known = 'rtmp' in snapshot ? snapshot : undefined;
  const running = snapshot.status === 'started';
  const session = code(watch.sessionId);
  const lead = running ? `:red_circle: Session ${session} is broadcasting live.` : `:black_square_for_stop: The broadcast of session ${session} has stopped.`;
  const blocks: KnownBlock[] = [header(running ? 'Live broadcast' : 'Broadcast stopped'), section(lead)];
  if (known?.hls !== undefined) {
    const url = running ? `\nThe HLS URL: \`/broadcast show ${escapeMrkdwn(watch.resourceId)}\`` : '';
    blocks.push(section(`*HLS* ${statusText(HLS_STATUS, known.hls)}${url}`));
  }
  const outputs = Object.entries(known?.rtmp ?? {});
  if (outputs.length > 0) {
    const lines = outputs.slice(0, 5).map(([id, status]) => `• ${code(id)} — ${statusText(RTMP_STATUS, status)} · _key hidden_`);
    blocks.push(section(`${outputs.length === 1 ? '*RTMP output*' : `*RTMP outputs* (${outputs.length})`}\n${lines.join('\n')}`));
  }
  if (known) {
    const maxDuration = known.maxDurationS ?? 14_400;
    blocks.push(fields([`*Started*\n${slackDate(known.createdAt)}`, `*Max duration*\n${formatDuration(maxDuration)}`]));
  }
  blocks.push(context(footer(broadcast, ctx)));
  if (running) blocks.push(actions([stopButton(broadcast, ctx)]));
  const text = running ? `Live broadcast of session ${escapeMrkdwn(watch.sessionId)}` : `The broadcast of session ${escapeMrkdwn(watch.sessionId)} has stopped`;
  return { text, blocks };
}

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

/** `/broadcast stop …`: the confirmation card for one broadcast (ephemeral). */
export function stopConfirmCard(broadcast: BroadcastView, ctx: { projectName: string; alias?: string }): SlackMessage {
  const text = `:warning: *Stop broadcast ${code(broadcast.id)}* of session ${sessionText(broadcast, ctx)}? ${outputsSummary(broadcast)} — every output ends at once.`;
  return {
    text: `Stop broadcast ${broadcast.id}?`,
    blocks: [section(text), actions([stopButton(broadcast, ctx), cancelButton()]), context('Only you can see this.')],
  };
}

/** `/broadcast stop` when the session runs several broadcasts: which one? (ephemeral) */
export function stopChoiceCard(broadcasts: readonly BroadcastView[], ctx: { projectName: string; alias?: string; sessionId: string }): SlackMessage {
  const session = ctx.alias ? code(ctx.alias) : code(ctx.sessionId);
  const blocks: KnownBlock[] = [section(`:warning: Session ${session} runs ${broadcasts.length} broadcasts. Which one should stop?`)];
  for (const broadcast of broadcasts.slice(0, MAX_BROADCASTS_IN_LIST)) {
    blocks.push(section(listLine(broadcast, ctx.alias), stopButton(broadcast, ctx, 'Stop this one')));
  }
  blocks.push(actions([cancelButton()]));
  blocks.push(context('Only you can see this.'));
  return { text: `Which broadcast of ${escapeMrkdwn(ctx.alias ?? ctx.sessionId)} should stop?`, blocks: blocks.slice(0, LIMITS.messageBlocks) };
}

function notice(icon: string, sentence: string, broadcast: { id: string; sessionId: string }, ctx: { projectName: string; alias?: string }): SlackMessage {
  return { text: stripMrkdwn(sentence), blocks: [section(`${icon} ${sentence}`), context(footer(broadcast, ctx))] };
}

export function broadcastStoppedNotice(actor: string, broadcast: { id: string; sessionId: string }, ctx: { projectName: string; alias?: string }): SlackMessage {
  return notice(':black_square_for_stop:', `${userMention(actor)} stopped broadcast ${code(broadcast.id)} of session ${sessionText(broadcast, ctx)}.`, broadcast, ctx);
}

export function broadcastLayoutNotice(
  actor: string,
  broadcast: { id: string; sessionId: string },
  ctx: { projectName: string; alias?: string },
  layout: { type: string; screenshareType?: string; stylesheet?: string },
): SlackMessage {
  const share = layout.screenshareType ? ` (while someone shares a screen: *${escapeMrkdwn(layout.screenshareType)}*)` : '';
  const css = layout.stylesheet ? ' with a custom stylesheet' : '';
  return notice(':frame_with_picture:', `${userMention(actor)} changed the layout of broadcast ${code(broadcast.id)} to *${escapeMrkdwn(layout.type)}*${share}${css}.`, broadcast, ctx);
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
