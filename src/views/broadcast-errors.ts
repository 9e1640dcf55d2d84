/**
 * Broadcast failures as one sentence with a next step. The cases broadcasts add (no one
 * connected, already broadcasting, tags, stopped broadcasts, stream selection in auto mode) are
 * worded here; the rest falls through to `describeError`. Validation messages are rewritten per
 * field so that no URL or stream key the user typed is ever quoted back.
 */
import { VideoApiError, VideoAuthError, VideoConflictError, VideoNotFoundError, VideoValidationError } from '../api';
import { parseErrorBody } from '../api/errors';
import { code, escapeAndTruncate } from '../slack/mrkdwn';
import { type SlackMessage, textMessage } from './blocks';
import { describeError, uncertainOutcome } from './errors';

export type BroadcastOperation = 'start' | 'stop' | 'read' | 'layout' | 'add-stream' | 'remove-stream';

export interface BroadcastErrorContext {
  operation: BroadcastOperation;
  project: string;
  sessionId?: string;
  /** The alias the session was named by. */
  alias?: string;
  broadcastId?: string;
  streamId?: string;
  /** The tag the start asked for, if any. */
  tag?: string;
}

const RTMP_FIELD = /^outputs\.rtmp\[(\d+)\]\.(serverUrl|streamName|id)$/;

/** A client-side validation problem, worded per field (never quoting the value). */
export function validationSentence(err: VideoValidationError): string {
  const rtmp = RTMP_FIELD.exec(err.field);
  if (rtmp) {
    const n = Number(rtmp[1]) + 1;
    switch (rtmp[2]) {
      case 'serverUrl':
        return `RTMP output ${n}: the server URL must be rtmp:// or rtmps:// with a port, e.g. rtmps://live.example.com:443/app`;
      case 'streamName':
        return `RTMP output ${n}: the stream key is missing`;
      default:
        return `RTMP output ${n}: output ids must be non-empty and unique`;
    }
  }
  switch (err.field) {
    case 'outputs':
      return 'say where to broadcast: HLS, at least one RTMP output, or both';
    case 'outputs.rtmp':
      return 'a broadcast has at most five RTMP outputs';
    case 'outputs.hls.lowLatency':
    case 'outputs.hls.dvr':
      return 'HLS can have DVR or low latency, not both';
    case 'maxBitrate':
      return 'the maximum bitrate must be 100,000 to 6,000,000 bits per second (e.g. 2500k or 2.5M)';
    case 'maxDuration':
      return 'the maximum duration must be 60 to 36,000 seconds (1 minute to 10 hours)';
    case 'hasVideo':
    case 'hasAudio':
      return 'a broadcast needs audio, video or both';
    case 'multiBroadcastTag':
      return 'the tag must not be empty';
    default:
      return escapeAndTruncate(err.message, 300);
  }
}

function serviceMessage(err: VideoApiError): string {
  return err.raw ? (parseErrorBody(err.raw).message ?? '') : '';
}

function sessionText(ctx: BroadcastErrorContext): string {
  if (ctx.alias) return `session ${code(ctx.alias)}`;
  return ctx.sessionId ? `session ${code(ctx.sessionId)}` : 'the session';
}

function broadcastText(ctx: BroadcastErrorContext): string {
  return ctx.broadcastId ? `broadcast ${code(ctx.broadcastId)}` : 'the broadcast';
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const VERB: Record<BroadcastOperation, string> = {
  start: 'nothing was started',
  stop: 'nothing was stopped',
  read: 'nothing was read',
  layout: 'the layout was not changed',
  'add-stream': 'nothing was changed',
  'remove-stream': 'nothing was changed',
};

function notFound(ctx: BroadcastErrorContext): string {
  switch (ctx.operation) {
    case 'start':
      return `${capitalize(sessionText(ctx))} was not found in project *${escapeAndTruncate(ctx.project, 100)}*; check the ID or alias (\`/video use\` shows this channel's session).`;
    case 'stop':
      return `${capitalize(broadcastText(ctx))} has already stopped (or the ID is wrong); there is nothing to stop. \`/broadcast list\` shows the running ones.`;
    case 'add-stream':
    case 'remove-stream':
      return `${capitalize(broadcastText(ctx))} or stream ${code(ctx.streamId ?? '?')} was not found (the stream may have stopped publishing, or the broadcast ended); \`/streams\` lists the streams, \`/broadcast list\` the broadcasts.`;
    default:
      return `There is no ${broadcastText(ctx)} in project *${escapeAndTruncate(ctx.project, 100)}*; \`/broadcast list\` shows the running ones.`;
  }
}

function conflict(err: VideoApiError, ctx: BroadcastErrorContext): string {
  const said = serviceMessage(err);
  if (/routed|relayed|p2p|media ?mode|media router/i.test(said)) {
    return `${capitalize(sessionText(ctx))} is relayed; broadcasting needs a routed session (create one with \`/session create\` without \`--relayed\`). ${capitalize(VERB[ctx.operation])}.`;
  }
  if (ctx.operation === 'start') {
    if (ctx.tag) {
      return `A broadcast tagged ${code(ctx.tag)} is already running in ${sessionText(ctx)}; give this one another tag (\`--tag <name>\`), or stop that one with \`/broadcast stop\`.`;
    }
    return `${capitalize(sessionText(ctx))} is already broadcasting. To run a second broadcast at the same time, give it a tag of its own (\`--tag <name>\`); or stop the running one with \`/broadcast stop\`.`;
  }
  if (ctx.operation === 'layout' || ctx.operation === 'add-stream' || ctx.operation === 'remove-stream') {
    return `${capitalize(broadcastText(ctx))} has stopped, so it can no longer change; ${VERB[ctx.operation]}.`;
  }
  return `The video service refused because of the current state of ${broadcastText(ctx)}${said ? `: ${escapeAndTruncate(said, 200)}` : ''}; ${VERB[ctx.operation]}.`;
}

function badRequest(err: VideoApiError, ctx: BroadcastErrorContext): string | undefined {
  const said = serviceMessage(err);
  if (ctx.operation === 'start' && /client/i.test(said) && /connect/i.test(said)) {
    return `Nobody is connected to ${sessionText(ctx)}; a broadcast needs at least one connected client. Start it once someone has joined.`;
  }
  if (/layout class/i.test(said)) {
    return `That layout needs layout classes on the streams (e.g. \`focus\`); set them with \`/streams\` → Edit layout classes, or use the bestFit layout. ${capitalize(VERB[ctx.operation])}.`;
  }
  if ((ctx.operation === 'add-stream' || ctx.operation === 'remove-stream') && /manual|auto/i.test(said)) {
    return `${capitalize(broadcastText(ctx))} takes every stream by itself (stream mode auto); only broadcasts started with \`--manual\` let you add or remove streams.`;
  }
  if (/rtmp/i.test(said) && /five|5/.test(said)) return 'A broadcast has at most five RTMP outputs; nothing was started.';
  return undefined;
}

/** One mrkdwn sentence (or two) for an error met while serving a broadcast command or button. */
export function describeBroadcastError(err: unknown, ctx: BroadcastErrorContext): string {
  if (err instanceof VideoValidationError) return `${capitalize(validationSentence(err))}. Nothing was sent; fix it and try again.`;
  if (err instanceof VideoAuthError) {
    return `The video service refused project *${escapeAndTruncate(ctx.project, 100)}* (it may be suspended, or its API key or secret is wrong); ${VERB[ctx.operation]}. Ask an admin to check the project's status and credentials.`;
  }
  if (err instanceof VideoNotFoundError) return notFound(ctx);
  if (err instanceof VideoConflictError) return conflict(err, ctx);
  const uncertain = uncertainOutcome(err, '`/broadcast list`');
  if (uncertain) return uncertain;
  if (err instanceof VideoApiError && err.status === 400) {
    const sentence = badRequest(err, ctx);
    if (sentence) return sentence;
  }
  // Only the 404 and 409 wording of describeError depends on the operation; both are worded above.
  return describeError(err, { operation: 'create-session', project: ctx.project, ...(ctx.sessionId ? { sessionId: ctx.sessionId } : {}) });
}

export function broadcastErrorMessage(err: unknown, ctx: BroadcastErrorContext): SlackMessage {
  return textMessage(`:warning: ${describeBroadcastError(err, ctx)}`);
}
