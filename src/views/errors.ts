/**
 * Failures as people read them: one sentence saying what happened and what to do next.
 * Never a stack, a raw body or an HTTP path; user- and service-supplied text is escaped.
 */
import {
  VideoApiError,
  VideoAuthError,
  VideoConflictError,
  VideoConnectionError,
  VideoNotFoundError,
  VideoRateLimitError,
  VideoTimeoutError,
  VideoValidationError,
} from '../api';
import { mayHaveTakenEffect, parseErrorBody } from '../api/errors';
import { code, escapeAndTruncate } from '../slack/mrkdwn';
import { type SlackMessage, textMessage } from './blocks';

/** What the app was doing when the error happened; picks the wording of 404s and 409s. */
export type Operation =
  | 'list-streams'
  | 'mute-stream'
  | 'mute-all'
  | 'unmute-all'
  | 'disconnect'
  | 'signal'
  | 'set-layout-classes'
  | 'create-session'
  | 'captions-start'
  | 'captions-stop'
  | 'render-start'
  | 'render-read'
  | 'render-stop'
  | 'dial'
  | 'dtmf'
  | 'hang-up'
  | 'audio-connect'
  | 'audio-stop';

export interface ErrorContext {
  operation: Operation;
  project?: string;
  sessionId?: string;
  streamId?: string;
  connectionId?: string;
  /** Captions, composer or Audio Connector id the operation concerned. */
  resourceId?: string;
}

const ROUTED_ONLY =
  'this session is relayed; recording, broadcast, SIP and audio need a routed session (create one with `/session create` without `--relayed`)';

function serviceMessage(err: VideoApiError): string | undefined {
  const parsed = err.raw ? parseErrorBody(err.raw).message : undefined;
  return parsed ? escapeAndTruncate(parsed, 200) : undefined;
}

function sessionLabel(ctx: ErrorContext): string {
  return ctx.sessionId ? `session ${code(ctx.sessionId)}` : 'the session';
}

function projectLabel(ctx: ErrorContext): string {
  return ctx.project ? `project *${escapeAndTruncate(ctx.project, 100)}*` : 'this project';
}

function notFound(ctx: ErrorContext): string {
  switch (ctx.operation) {
    case 'disconnect':
    case 'signal':
      if (ctx.connectionId) {
        return `Connection ${code(ctx.connectionId)} is not connected to ${sessionLabel(ctx)} (it may have left already); nothing was sent.`;
      }
      return `${capitalize(sessionLabel(ctx))} was not found in ${projectLabel(ctx)}, or nobody is connected to it; check the ID or alias.`;
    case 'mute-stream':
      return `Stream ${code(ctx.streamId ?? '?')} was not found in ${sessionLabel(ctx)}; it may have stopped publishing. \`/streams\` lists the current streams.`;
    case 'list-streams':
      return `Nobody is publishing in ${sessionLabel(ctx)} yet (or the session ID is wrong).`;
    default:
      return `${capitalize(sessionLabel(ctx))} was not found in ${projectLabel(ctx)}; check the ID or alias (\`/video use\` shows this channel's session).`;
  }
}

function conflict(err: VideoApiError, ctx: ErrorContext): string {
  const said = serviceMessage(err);
  if (said && /routed|relayed|p2p|media ?mode|media router/i.test(said)) return capitalize(ROUTED_ONLY) + '.';
  return `The video service refused because of the current state of ${sessionLabel(ctx)}${said ? `: ${said}` : ''}; nothing was changed.`;
}

const RENDER_400: Readonly<Record<number, string>> = {
  50001: 'the page address is not a valid URL; give the full address, e.g. `https://meet.example.com/board/42`',
  50002: 'the video service could not reach the page; it must be public (no login, no VPN) — check that it opens in a private browser window',
  50005: 'the maximum duration must be 60 to 36000 seconds, e.g. `--max-duration 3600`',
  50006: 'the resolution must be one of 640x480, 480x640, 1280x720, 720x1280, 1920x1080 or 1080x1920, e.g. `--resolution 1280x720`',
  50007: 'the stream name must be 1 to 200 characters, e.g. `--name Whiteboard`',
};

const RENDER_TOKEN_403: Readonly<Record<number, string>> = {
  10001: 'malformed or wrongly signed',
  10002: 'not allowed to publish',
  10007: 'made for another session',
  10012: 'expired',
};

/** Captions, composers, SIP calls, DTMF and the Audio Connector: the cases their endpoints add. */
function featureError(err: VideoApiError, ctx: ErrorContext): string | undefined {
  const id = ctx.resourceId ? ` ${code(ctx.resourceId)}` : '';
  const status = err.status;
  const serviceCode = typeof err.code === 'number' ? err.code : undefined;
  switch (ctx.operation) {
    case 'captions-start':
      if (status === 409) return `Captions are already running for ${sessionLabel(ctx)} (one per session); stop them with \`/captions stop\`.`;
      return undefined;
    case 'captions-stop':
      if (status === 404)
        return `Captions${id} are not running (they ended already, or the ID is wrong); nothing was stopped. \`/captions start\` starts them again.`;
      return undefined;
    case 'render-start':
      if (status === 400 && serviceCode === 50008)
        return `${capitalize(sessionLabel(ctx))} is not a session of ${projectLabel(ctx)}; check the ID or alias (\`/video use\` shows this channel's session).`;
      if (status === 400 && serviceCode !== undefined && RENDER_400[serviceCode])
        return `The video service did not start the page: ${RENDER_400[serviceCode]}.`;
      if (status === 403 && serviceCode !== undefined && RENDER_TOKEN_403[serviceCode]) {
        return `The video service refused the participant token vidops made for the page (${RENDER_TOKEN_403[serviceCode]}); nothing was started. Try again; if it keeps failing, ask an admin to check the API secret of ${projectLabel(ctx)} and the server clock.`;
      }
      return undefined;
    case 'render-read':
    case 'render-stop':
      if (status === 404)
        return `Composer${id} was not found in ${projectLabel(ctx)}${ctx.operation === 'render-stop' ? ' or has already stopped' : ''}; \`/render list\` shows the composers.`;
      return undefined;
    case 'dial':
    case 'audio-connect':
      // The spec gives these endpoints one 409: the session is not routed.
      if (status === 409) return capitalize(ROUTED_ONLY) + '.';
      return undefined;
    case 'dtmf':
      if (status === 404 && ctx.connectionId)
        return `Connection ${code(ctx.connectionId)} is not connected to ${sessionLabel(ctx)} (the call may have ended); no tones were sent.`;
      return undefined;
    case 'hang-up':
      if (status === 404) return `The call (connection ${code(ctx.connectionId ?? '?')}) has already ended; there is nothing to hang up.`;
      return undefined;
    case 'audio-stop':
      if (status === 404) return `The audio connection${id} has already ended (its connection left ${sessionLabel(ctx)}); there is nothing to stop.`;
      return undefined;
    default:
      return undefined;
  }
}

/** Where a person checks whether a change happened after an uncertain outcome, per operation. */
const CHECK_WITH: Readonly<Record<Operation, string>> = {
  'list-streams': '`/streams`',
  'mute-stream': '`/streams`',
  'mute-all': '`/streams`',
  'unmute-all': '`/streams`',
  disconnect: '`/streams`',
  signal: 'the participants',
  'set-layout-classes': '`/streams`',
  'create-session': '`/video aliases`',
  'captions-start': 'the session',
  'captions-stop': 'the session',
  'render-start': '`/render list`',
  'render-read': '`/render list`',
  'render-stop': '`/render list`',
  dial: '`/streams`',
  dtmf: 'the call',
  'hang-up': '`/streams`',
  'audio-connect': '`/streams`',
  'audio-stop': '`/streams`',
};

/**
 * The failures where the service's answer was lost, late, cut off or unreadable, worded by what
 * is known of the outcome: a read changed nothing; a change that never reached the service was
 * not made; one that reached it may have been made (the adapter does not repeat it), so the
 * person checks before trying again. `checkWith` names where to look, e.g. `` `/record list` ``.
 */
export function uncertainOutcome(err: unknown, checkWith: string): string | undefined {
  if (!(err instanceof VideoApiError)) return undefined;
  const lost = err instanceof VideoTimeoutError || err instanceof VideoConnectionError;
  const unreadable = !lost && err.status !== undefined && err.status >= 200 && err.status < 300;
  if (!lost && !unreadable) return undefined;
  if (mayHaveTakenEffect(err)) {
    if (unreadable)
      return `The video service accepted the request but its answer could not be read, so the change was probably made. Check with ${checkWith} before trying again.`;
    const what = err instanceof VideoTimeoutError ? 'did not answer in time' : 'dropped the connection before answering';
    return `The video service ${what}, so the change may or may not have been made. Check with ${checkWith}, then try again if needed.`;
  }
  if (unreadable)
    return 'The video service sent an answer that could not be read; nothing was changed. Try again in a moment; if it keeps happening, ask an admin to look at the vidops logs.';
  if (err instanceof VideoTimeoutError && err.method !== undefined)
    return 'The video service did not answer in time; nothing was changed. Try again in a moment.';
  if (err instanceof VideoTimeoutError)
    return `The video service did not answer in time, so the change may or may not have been made. Check with ${checkWith}, then try again if needed.`;
  return 'The video service could not be reached; nothing was changed. Try again in a moment.';
}

/** One mrkdwn sentence (or two) for any error thrown while serving a command. */
export function describeError(err: unknown, ctx: ErrorContext): string {
  const feature = err instanceof VideoApiError && !(err instanceof VideoValidationError) ? featureError(err, ctx) : undefined;
  if (feature) return feature;
  if (err instanceof VideoValidationError) {
    return `${escapeAndTruncate(err.message, 500)} — nothing was sent; fix it and try again.`;
  }
  if (err instanceof VideoAuthError) {
    return `The video service refused the credentials of ${projectLabel(ctx)} (wrong API key or secret, or the project is suspended); nothing was changed. Ask an admin to check the project's key and status.`;
  }
  if (err instanceof VideoNotFoundError) return notFound(ctx);
  if (err instanceof VideoConflictError) return conflict(err, ctx);
  if (err instanceof VideoRateLimitError) {
    const wait = err.retryAfterMs ? ` in ${Math.max(1, Math.ceil(err.retryAfterMs / 1000))} s` : ' in a moment';
    return `The video service is limiting how fast we call it; nothing was changed. Try again${wait}.`;
  }
  const uncertain = uncertainOutcome(err, CHECK_WITH[ctx.operation]);
  if (uncertain) return uncertain;
  if (err instanceof VideoApiError) {
    const said = serviceMessage(err);
    switch (err.status) {
      case 400:
        return `The video service rejected the request as invalid${said ? `: ${said}` : ''}; nothing was changed.`;
      case 408:
        return `The video service says the stream ID is invalid; \`/streams\` lists the current streams.`;
      case 413:
        return 'The signal is too large (type at most 128 bytes, data at most 8 kB); nothing was sent.';
      default:
        if (err.status !== undefined && err.status >= 500) {
          return `The video service did not answer properly (error ${err.status}); nothing was changed. Try again in a moment.`;
        }
        return `The video service refused the request${said ? `: ${said}` : ''}; nothing was changed.`;
    }
  }
  return 'Something went wrong on our side; it was logged. Try again, or ask an admin to look at the vidops logs.';
}

/** A short code for the audit log (`error` column). */
export function auditErrorCode(err: unknown): string {
  if (err instanceof VideoApiError) {
    const status = err.status !== undefined ? ` ${err.status}` : '';
    return `${err.name}${status}`.slice(0, 200);
  }
  return err instanceof Error ? err.name : 'Error';
}

export function errorMessage(err: unknown, ctx: ErrorContext): SlackMessage {
  return textMessage(`:warning: ${describeError(err, ctx)}`);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
