/**
 * The broadcast kind: its words (HLS and RTMP statuses, what an output says once stopped), its
 * card model (outputs by id and host, the HLS URL and mode, the options asked for, who started
 * and who stopped it), the one renderer of its card and its Stop button.
 *
 * RTMP stream names are stream keys: nothing here reads `streamName`, and a model keeps an
 * output's id and host only. The HLS URL is a public playback address and is kept.
 */
import { z } from 'zod';
import type { Broadcast } from '../api';
import type { BroadcastSnapshot } from '../poller/snapshot';
import { code, escapeAndTruncate, escapeMrkdwn, userMention } from '../slack/mrkdwn';
import { type Button, type KnownBlock, type SlackMessage, actions, button, context, fields, header, section } from '../views/blocks';
import { formatDuration } from '../views/format';
import { type Via, dialogFor } from '../views/confirmation-policy';
import { ACTION } from '../views/ids';
import { encodeValue } from '../views/values';
import { type CardView, type ResourceKind, actionsContext } from './kind';

/** What an RTMP server URL looks like (forms and their error sentences). */
export const RTMP_URL_EXAMPLE = 'rtmps://live.example.com:443/app';

/** Default `maxDuration` when none was set (seconds). */
export const DEFAULT_MAX_DURATION_S = 14_400;

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
      /** An output's server as the API gives it (`serverUrl`) or as a card model keeps it (`host`). */
      rtmp: readonly RtmpShown[];
    } | null;
    /** How many streams were chosen, when `streams` itself is not known (a card model). */
    streamCount?: number;
  };

type RtmpShown = { id?: string; status?: string } & ({ serverUrl: string; host?: never } | { host: string; serverUrl?: never });

/** The host of an output's server, as cards show it (`live.example.com`). */
export function rtmpHost(serverUrl: string): string {
  try {
    const url = new URL(serverUrl.trim());
    return url.hostname !== '' ? url.hostname : 'unknown host';
  } catch {
    return 'unknown host';
  }
}

const hostOf = (output: RtmpShown): string => output.host ?? rtmpHost(output.serverUrl!);

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

/** What an output says once its broadcast has stopped, whatever it last reported. */
const CLOSED = 'closed';

const HLS_STATUS: Record<string, string> = {
  [CLOSED]: ':black_circle: closed (the broadcast stopped)',
  connecting: ':hourglass_flowing_sand: connecting',
  ready: ':large_yellow_circle: ready, waiting for the CDN',
  live: ':large_green_circle: live',
  ended: ':black_circle: ended (the source stream ended)',
  error: ':x: error',
};

const RTMP_STATUS: Record<string, string> = {
  [CLOSED]: ':black_circle: closed (the broadcast stopped)',
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

export function sessionText(broadcast: { sessionId: string }, ctx: { alias?: string }): string {
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

function rtmpLines(outputs: readonly RtmpShown[]): string {
  return outputs
    .slice(0, 5)
    .map((o, i) => `• ${code(o.id ?? `#${i + 1}`)} ${escapeAndTruncate(hostOf(o), 200)} — ${statusText(RTMP_STATUS, o.status)} · _key hidden_`)
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
  const maxDuration = broadcast.maxDuration ?? DEFAULT_MAX_DURATION_S;
  const endsBy = broadcast.status === 'started' ? ` (ends by ${slackDate(broadcast.createdAt + maxDuration * 1000, '{time}')} at the latest)` : '';
  items.push(`*Max duration*\n${formatDuration(maxDuration)}${endsBy}`);
  items.push(`*Started*\n${slackDate(broadcast.createdAt)}${ctx.startedBy ? ` by ${userMention(ctx.startedBy)}` : ''}`);
  items.push(
    `*Streams*\n${broadcast.streamMode === 'manual' ? `chosen by hand (${broadcast.streams?.length ?? broadcast.streamCount ?? 0} selected)` : 'everyone publishing'}`,
  );
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

export function broadcastTarget(
  broadcast: { id: string; sessionId: string },
  ctx: { projectName: string; alias?: string; startedBy?: string },
): BroadcastTarget {
  return {
    p: ctx.projectName,
    s: broadcast.sessionId,
    b: broadcast.id,
    ...(ctx.alias ? { a: ctx.alias } : {}),
    ...(ctx.startedBy ? { u: ctx.startedBy } : {}),
  };
}

export function stopButton(
  broadcast: { id: string; sessionId: string },
  ctx: { projectName: string; alias?: string; startedBy?: string },
  text = 'Stop broadcast',
  via: Via = 'clicked',
): Button {
  return button({
    actionId: ACTION.broadcastStop,
    text,
    style: 'danger',
    value: encodeValue(broadcastTarget(broadcast, ctx)),
    accessibilityLabel: `Stop broadcast ${broadcast.id}`,
    ...dialogFor('broadcast-stop', via, {
      title: 'Stop the broadcast?',
      text: `Broadcast ${code(broadcast.id)} of session ${sessionText(broadcast, ctx)} ends at once for every viewer and RTMP destination.`,
      confirm: 'Stop broadcast',
      deny: 'Keep it running',
      danger: true,
    }),
  });
}

export function footer(broadcast: { id: string; sessionId: string }, ctx: { projectName: string; alias?: string }): string {
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

/** What a broadcast card keeps from its start. */
export const BroadcastContextSchema = z.object({
  startedBy: z.string().optional(),
  alias: z.string().optional(),
  hlsUrl: z.string().optional(),
  hls: z.object({ dvr: z.boolean().optional(), lowLatency: z.boolean().optional() }).optional(),
  rtmp: z.array(z.object({ id: z.string(), host: z.string() })).optional(),
  resolution: z.string().optional(),
  streamMode: z.string().optional(),
  streamCount: z.number().optional(),
  hasAudio: z.boolean().optional(),
  hasVideo: z.boolean().optional(),
  tag: z.string().optional(),
  maxBitrate: z.number().optional(),
  maxDuration: z.number().optional(),
});
export type BroadcastContext = z.output<typeof BroadcastContextSchema>;

/** The context captured from the start response, the HLS mode asked for, and the asker. */
export function broadcastContext(
  broadcast: BroadcastView,
  who: { startedBy?: string; alias?: string; hls?: { dvr?: boolean; lowLatency?: boolean } },
): BroadcastContext {
  const urls = broadcast.broadcastUrls ?? undefined;
  return BroadcastContextSchema.parse({
    startedBy: who.startedBy,
    alias: who.alias,
    hlsUrl: urls?.hls || undefined,
    hls: who.hls ?? broadcast.settings?.hls ?? undefined,
    rtmp: urls?.rtmp.map((o, i) => ({ id: o.id || `#${i + 1}`, host: hostOf(o) })),
    resolution: broadcast.resolution ?? undefined,
    streamMode: broadcast.streamMode,
    streamCount: broadcast.streams?.length,
    hasAudio: broadcast.hasAudio,
    hasVideo: broadcast.hasVideo,
    tag: broadcast.multiBroadcastTag ?? undefined,
    maxBitrate: broadcast.maxBitrate ?? undefined,
    maxDuration: broadcast.maxDuration ?? undefined,
  });
}

/**
 * The broadcast as the card shows it: statuses from the state, everything else from the model.
 * Once stopped, every output says closed, whatever it reported last.
 */
function viewOf({ resourceId, sessionId, state, context: c }: CardView<BroadcastSnapshot, BroadcastContext>): BroadcastView {
  const known = state && 'rtmp' in state ? state : undefined;
  const status = state?.status ?? 'stopped';
  const running = status === 'started';
  const hasHls = known?.hls !== undefined || c.hlsUrl !== undefined || c.hls !== undefined;
  const outputs = c.rtmp ?? Object.keys(known?.rtmp ?? {}).map((id) => ({ id, host: 'server' }));
  return {
    id: resourceId,
    sessionId,
    status,
    createdAt: known?.createdAt ?? 0,
    resolution: c.resolution ?? '640x480',
    streamMode: (c.streamMode ?? 'auto') as Broadcast['streamMode'],
    hasAudio: c.hasAudio ?? true,
    hasVideo: c.hasVideo ?? true,
    maxDuration: known?.maxDurationS ?? c.maxDuration,
    ...(c.maxBitrate !== undefined && { maxBitrate: c.maxBitrate }),
    ...(c.tag !== undefined && { multiBroadcastTag: c.tag }),
    ...(c.streamCount !== undefined && { streamCount: c.streamCount }),
    broadcastUrls: {
      ...(hasHls && { hlsStatus: running ? (known?.hls ?? 'connecting') : CLOSED }),
      ...(c.hlsUrl !== undefined && { hls: c.hlsUrl }),
      rtmp: outputs.map((o) => ({ id: o.id, host: o.host, status: running ? (known?.rtmp[o.id] ?? 'connecting') : CLOSED })),
    },
  };
}

export const broadcastKind: ResourceKind<BroadcastSnapshot, BroadcastContext> = {
  kind: 'broadcast',
  nouns: { one: 'Broadcast', many: 'Broadcasts' },
  context: BroadcastContextSchema,
  render: (view) => {
    const stop = [...view.actions].reverse().find((a) => a.action === 'stop');
    const card = broadcastCard(viewOf(view), {
      projectName: view.projectName,
      ...(view.context.alias !== undefined && { alias: view.context.alias }),
      ...(view.context.startedBy !== undefined && { startedBy: view.context.startedBy }),
      ...(stop && { stoppedBy: stop.by }),
      ...(view.context.hls !== undefined && { hls: view.context.hls }),
    });
    const done = actionsContext(broadcastKind, view.actions);
    if (!done) return card;
    // The actions line goes after the facts, before the buttons.
    const at = card.blocks.findIndex((block) => block.type === 'actions');
    const blocks: KnownBlock[] = [...card.blocks];
    blocks.splice(at === -1 ? blocks.length : at, 0, context(done));
    return { text: card.text, blocks };
  },
  actionWords: (record) => {
    const words: Record<string, string> = { stop: 'Stopped', layout: 'Layout changed', 'add-stream': 'Stream added', 'remove-stream': 'Stream removed' };
    const said = words[record.action] ?? escapeMrkdwn(record.action);
    return record.detail ? `${said} (${escapeAndTruncate(record.detail, 60)})` : said;
  },
};
