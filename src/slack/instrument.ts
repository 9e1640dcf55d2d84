/**
 * Every Slack request — over HTTP or Socket Mode — enters `app.processEvent`. Wrapping it once
 * gives each request a context (its id for logs and video calls, see request-context.ts),
 * counts it in flight until its follow-up work is done, times its ack, and counts how it ended.
 */
import type { App, ReceiverEvent } from '@slack/bolt';
import type { VidopsMetrics } from '../metrics/registry';
import { type RequestContext, newRequestId, runInRequest } from '../request-context';
import type { InFlight } from './in-flight';

export interface RequestKind {
  /** `command`, `block_actions`, `view_submission`, `shortcut`, `options`, `event`, or the payload type. */
  kind: string;
  /** The slash command, action id, callback id or event type (`unknown` when absent). */
  name: string;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** What a request is, from its body (pure). */
export function describeRequest(body: Record<string, unknown>): RequestKind {
  const command = text(body.command);
  if (command) return { kind: 'command', name: command };
  const type = text(body.type) ?? 'unknown';
  const field = (key: string, from: unknown = body) => text((from as Record<string, unknown> | undefined)?.[key]);
  switch (type) {
    case 'block_actions':
      return { kind: type, name: field('action_id', (body.actions as unknown[] | undefined)?.[0]) ?? 'unknown' };
    case 'view_submission':
    case 'view_closed':
      return { kind: type, name: field('callback_id', body.view) ?? 'unknown' };
    case 'shortcut':
    case 'message_action':
      return { kind: 'shortcut', name: field('callback_id') ?? 'unknown' };
    case 'block_suggestion':
      return { kind: 'options', name: field('action_id') ?? 'unknown' };
    case 'event_callback':
      return { kind: 'event', name: field('type', body.event) ?? 'unknown' };
    default:
      return { kind: type, name: 'unknown' };
  }
}

function idOf(value: unknown): string | undefined {
  return text((value as { id?: unknown } | null | undefined)?.id);
}

/** Who sent a request and from which channel, when its body says (pure). */
export function actorOf(body: Record<string, unknown>): { user?: string; channel?: string } {
  const event = body.event as Record<string, unknown> | undefined;
  const user = text(body.user_id) ?? idOf(body.user) ?? text(event?.user);
  const channel =
    text(body.channel_id) ?? idOf(body.channel) ?? text((body.container as Record<string, unknown> | undefined)?.channel_id) ?? text(event?.channel);
  return { ...(user !== undefined && { user }), ...(channel !== undefined && { channel }) };
}

export interface InstrumentOptions {
  inFlight: InFlight;
  metrics?: VidopsMetrics;
  /** The slash commands the app serves: the only values of the `command` label (others count as `other`). */
  commandNames?: readonly string[];
}

/** Request kinds Slack sends; the only values of the `kind` label (others count as `other`). */
const KINDS: ReadonlySet<string> = new Set([
  'command',
  'block_actions',
  'view_submission',
  'view_closed',
  'shortcut',
  'options',
  'event',
  'url_verification',
  'app_rate_limited',
]);

/** A metric label from a known set, else `other`: labels from payloads would be unbounded. */
export function knownLabel(value: string, known: ReadonlySet<string>): string {
  return known.has(value) ? value : 'other';
}

export function instrumentRequests(app: App, { inFlight, metrics, commandNames = [] }: InstrumentOptions): void {
  const processEvent = app.processEvent.bind(app);
  const commands = new Set(commandNames);
  app.processEvent = async (event: ReceiverEvent): Promise<void> => {
    const started = performance.now();
    const described = describeRequest(typeof event.body === 'object' && event.body !== null ? (event.body as Record<string, unknown>) : {});
    const kind = knownLabel(described.kind, KINDS);
    const { name } = described;
    const body = typeof event.body === 'object' && event.body !== null ? (event.body as Record<string, unknown>) : {};
    const context: RequestContext = { requestId: newRequestId(), kind, name, outcome: 'ok', ...actorOf(body) };
    const ack = event.ack;
    let acked = false;
    const timedAck: ReceiverEvent['ack'] = async (response) => {
      if (!acked) {
        acked = true;
        metrics?.ackLatency.observe({ kind }, (performance.now() - started) / 1000);
      }
      return ack(response);
    };
    inFlight.start();
    metrics?.slackRequestsInFlight.inc();
    try {
      await runInRequest(context, () => processEvent({ ...event, ack: timedAck }));
    } catch (error) {
      if (context.outcome === 'ok') context.outcome = 'error';
      throw error;
    } finally {
      inFlight.finish();
      metrics?.slackRequestsInFlight.dec();
      if (kind === 'command') metrics?.commands.inc({ command: knownLabel(name, commands), outcome: context.outcome });
      else metrics?.interactions.inc({ kind, outcome: context.outcome });
    }
  };
}
