/**
 * The composer kind (a web page published into a session): its words (statuses, why it
 * stopped), its card model (the page, resolution, stream name, maximum duration, who started it),
 * the one renderer of its card, and Stop while it runs. Page addresses and names are escaped.
 */
import { z } from 'zod';
import type { RenderSnapshot } from '../poller/snapshot';
import { code, escapeAndTruncate, escapeMrkdwn, userMention } from '../slack/mrkdwn';
import { type Button, type KnownBlock, type SlackMessage, actions, button, context, fallbackText, fields, section } from '../views/blocks';
import { formatDuration } from '../views/format';
import { type Via, dialogFor } from '../views/confirmation-policy';
import { ACTION } from '../views/ids';
import { type SessionRef, footer, sessionText } from '../views/notices';
import { encodeValue, sessionTarget } from '../views/values';
import { type ResourceKind, actionsContext } from './kind';

/** The fields of a composer the views show (the adapter's `Render` has them all). */
export interface RenderView {
  id: string;
  sessionId: string;
  status: string;
  url: string;
  createdAt: number;
  name?: string;
  resolution?: string;
  reason?: string;
  streamId?: string;
}

const STATUS: Readonly<Record<string, string>> = {
  starting: ':hourglass_flowing_sand: starting',
  started: ':large_green_circle: live',
  stopped: ':white_circle: stopped',
  failed: ':x: failed',
};

const STOP_REASONS: Readonly<Record<string, string>> = {
  'Stop Requested': 'stop requested',
  'Max Duration Exceeded': 'maximum duration reached',
};

export function isRenderRunning(status: string): boolean {
  return status === 'starting' || status === 'started';
}

/** Why a composer stopped, in the same words on its card and in its thread. */
export function stopReasonWords(reason: string): string {
  return STOP_REASONS[reason] ?? escapeAndTruncate(reason, 200);
}

export function renderStatusText(render: Pick<RenderView, 'status' | 'reason'>): string {
  const status = STATUS[render.status] ?? escapeMrkdwn(render.status);
  if (!render.reason) return status;
  return `${status} (${stopReasonWords(render.reason)})`;
}

export function pageText(url: string): string {
  return escapeAndTruncate(url, 300);
}

/**
 * "Stop" for a composer: Slack's confirm dialog first, but none on a card answering `/render stop`
 * (`typed`: the card was the question). Also usable where only its id is known.
 */
export function renderStopButton(s: SessionRef, render: Pick<RenderView, 'id'> & { url?: string }, via: Via = 'clicked'): Button {
  return button({
    actionId: ACTION.stopRender,
    text: 'Stop',
    style: 'danger',
    value: encodeValue({ ...sessionTarget(s), i: render.id }),
    accessibilityLabel: `Stop composer ${render.id}`,
    ...dialogFor('render-stop', via, {
      title: 'Stop this composer?',
      text: `${render.url ? `The page ${escapeAndTruncate(render.url, 150)}` : 'Its page'} stops being published into ${sessionText(s)}.`,
      confirm: 'Stop',
      danger: true,
    }),
  });
}

export function detailFields(render: RenderView, maxDurationS?: number): KnownBlock {
  const items = [
    `*Status*\n${renderStatusText(render)}`,
    `*Resolution*\n${render.resolution ? escapeMrkdwn(render.resolution) : '1280x720'}`,
    `*Stream name*\n${render.name ? escapeAndTruncate(render.name, 200) : '_none_'}`,
  ];
  // Only a composer still running will stop by itself.
  if (maxDurationS !== undefined && isRenderRunning(render.status)) items.push(`*Stops by itself*\nafter ${formatDuration(maxDurationS)}`);
  items.push(`*Composer ID*\n${code(render.id)}`);
  if (render.streamId) items.push(`*Stream ID*\n${code(render.streamId)}`);
  return fields(items);
}

export const ComposerContextSchema = z.object({
  startedBy: z.string().optional(),
  alias: z.string().optional(),
  url: z.string().optional(),
  resolution: z.string().optional(),
  name: z.string().optional(),
  maxDuration: z.number().optional(),
  streamId: z.string().optional(),
});
export type ComposerContext = z.output<typeof ComposerContextSchema>;

/** The context captured from the start response, the maximum duration asked for, and the asker. */
export function composerContext(render: RenderView, asked: { startedBy?: string; alias?: string; maxDuration?: number }): ComposerContext {
  return ComposerContextSchema.parse({
    ...asked,
    url: render.url,
    resolution: render.resolution,
    name: render.name || undefined,
    streamId: render.streamId,
  });
}

/** The card of a composer: what it publishes, where, its status, and Stop while it runs. */
function composerCard(s: SessionRef, render: RenderView, c: ComposerContext, done: Parameters<typeof actionsContext>[1]): SlackMessage {
  const running = isRenderRunning(render.status);
  const who = c.startedBy
    ? `${userMention(c.startedBy)} started publishing a web page into ${sessionText(s)}.`
    : `A web page is published into ${sessionText(s)}.`;
  const blocks: KnownBlock[] = [
    section(`:frame_with_picture: ${who}\n*Page* ${render.url ? pageText(render.url) : '_unknown_'}`),
    detailFields(render, c.maxDuration),
  ];
  const line = actionsContext(composerKind, done);
  if (line) blocks.push(context(line));
  if (running) blocks.push(actions([renderStopButton(s, render)]));
  blocks.push(context(`${footer(s)} · the page shows up as a stream once it has loaded`));
  const name = render.name ? ` “${render.name}”` : '';
  return { text: fallbackText(`Composer${name} in session ${s.alias ?? s.sessionId}: ${render.status}`), blocks };
}

export const composerKind: ResourceKind<RenderSnapshot, ComposerContext> = {
  kind: 'render',
  nouns: { one: 'Composer', many: 'Composers' },
  context: ComposerContextSchema,
  render: ({ resourceId, sessionId, projectName, state, context: c, actions: done }) => {
    const known = state && 'createdAt' in state ? state : undefined;
    const s: SessionRef = { projectName, sessionId, ...(c.alias !== undefined && { alias: c.alias }) };
    const render: RenderView = {
      id: resourceId,
      sessionId,
      status: state?.status ?? 'gone',
      url: c.url ?? '',
      createdAt: known?.createdAt ?? 0,
      ...((known?.name ?? c.name) !== undefined && { name: known?.name ?? c.name }),
      ...(c.resolution !== undefined && { resolution: c.resolution }),
      ...(known?.reason !== undefined && { reason: known.reason }),
      ...(c.streamId !== undefined && { streamId: c.streamId }),
    };
    return composerCard(s, render, c, done);
  },
  actionWords: (record) => (record.action === 'stop' ? 'Stopped' : escapeMrkdwn(record.action)),
};
