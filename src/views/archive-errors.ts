/**
 * Recording failures as one sentence with a next step. The archive endpoints give several
 * refusals the same status (409: relayed session, already recording, duplicate tag, wrong
 * status), so the command reads a little more state after a refusal (the archive's status,
 * whether the session is already being recorded) and hands it in here; the wording itself is
 * pure. Never a stack, a raw body or an HTTP path; service text is escaped.
 */
import { VideoApiError, VideoAuthError, VideoConflictError, VideoNotFoundError, VideoRateLimitError, VideoValidationError } from '../api';
import { parseErrorBody } from '../api/errors';
import { code, escapeAndTruncate } from '../slack/mrkdwn';
import { type SlackMessage, textMessage } from './blocks';
import { statusLabel } from '../kinds/recording';
import { uncertainOutcome } from './errors';

export type ArchiveOperation = 'start' | 'stop' | 'read' | 'list' | 'delete' | 'layout' | 'add-stream' | 'remove-stream' | 'set-storage' | 'clear-storage';

export interface ArchiveErrorContext {
  operation: ArchiveOperation;
  project: string;
  sessionId?: string;
  alias?: string;
  archiveId?: string;
  streamId?: string;
  /** The `--tag` the start asked for. */
  tag?: string;
  /** The archive's status, read after the service refused because of it. */
  status?: string;
  /** Start only: whether the session already has a recording in progress (read after a 409). */
  sessionBusy?: boolean;
}

export const ROUTED_ONLY =
  'This session is relayed; recording needs a routed session — create one with `/session create --use` (without `--relayed`) and record that one.';

function said(err: VideoApiError): string | undefined {
  const parsed = err.raw ? parseErrorBody(err.raw).message : undefined;
  return parsed ? parsed : undefined;
}

function saidEscaped(err: VideoApiError): string {
  const text = said(err);
  return text ? `: ${escapeAndTruncate(text, 200)}` : '';
}

function project(ctx: ArchiveErrorContext): string {
  return `project *${escapeAndTruncate(ctx.project, 100)}*`;
}

function session(ctx: ArchiveErrorContext): string {
  return `session ${code(ctx.alias ?? ctx.sessionId ?? '?')}`;
}

function recording(ctx: ArchiveErrorContext): string {
  return `recording ${code(ctx.archiveId ?? '?')}`;
}

function unknownArchive(ctx: ArchiveErrorContext): string {
  return `There is no ${recording(ctx)} in ${project(ctx)}; \`/record list --all\` shows its recordings.`;
}

function statusName(status: string | undefined): string {
  return status ? `*${status}* (${statusLabel(status).toLowerCase()})` : 'not recording';
}

function startConflict(err: VideoApiError, ctx: ArchiveErrorContext): string {
  const text = said(err) ?? '';
  if (/routed|relayed|p2p|media ?mode|media router/i.test(text)) return ROUTED_ONLY;
  const again = `\`/record start ${ctx.alias ?? ctx.sessionId ?? '<session>'} --tag second\``;
  if (/automatic/i.test(text)) {
    return `${capitalize(session(ctx))} is recorded automatically; a recording started by hand needs its own tag, e.g. ${again}.`;
  }
  if (ctx.tag !== undefined && (/tag/i.test(text) || ctx.sessionBusy)) {
    return `Another recording of ${session(ctx)} already uses the tag ${code(ctx.tag)}; pick a different \`--tag\`.`;
  }
  if (/already|tag/i.test(text) || ctx.sessionBusy) {
    return `${capitalize(session(ctx))} is already being recorded. To record it a second time in parallel, give this recording its own tag: ${again}. \`/record list\` shows the running one.`;
  }
  return ROUTED_ONLY;
}

function wrongStatus(ctx: ArchiveErrorContext): string {
  const status = ctx.status;
  switch (ctx.operation) {
    case 'stop':
      if (status === 'paused') {
        return `${capitalize(recording(ctx))} is *paused* (nobody is publishing), so the service will not stop it now; it stops by itself 60 s after everyone leaves or after 60 min without publishers.`;
      }
      return `${capitalize(recording(ctx))} is not being recorded (it is ${statusName(status)}), so there is nothing to stop.`;
    case 'delete': {
      const next =
        status === 'started' || status === 'paused'
          ? 'stop it first, then delete it once it is available'
          : status === 'stopped'
            ? 'its file is still being processed; try again once it is available'
            : 'there is no file left to delete';
      return `${capitalize(recording(ctx))} cannot be deleted while it is ${statusName(status)}: only *available* or *uploaded* recordings can be deleted — ${next}.`;
    }
    default:
      return `${capitalize(recording(ctx))} is not being recorded (it is ${statusName(status)}); layouts and streams change only while it records.`;
  }
}

function notFound(err: VideoApiError, ctx: ArchiveErrorContext): string {
  switch (ctx.operation) {
    case 'start':
      return `Nobody is connected to ${session(ctx)} (or it does not exist in ${project(ctx)}), so there is nothing to record; start the recording once someone has joined.`;
    case 'add-stream':
      if (/stream/i.test(said(err) ?? '') || ctx.status !== undefined) {
        return `Stream ${code(ctx.streamId ?? '?')} is not publishing in the session of ${recording(ctx)}; \`/streams\` lists the session's streams.`;
      }
      return unknownArchive(ctx);
    case 'remove-stream':
      if (/stream/i.test(said(err) ?? '') || ctx.status !== undefined) {
        return `Stream ${code(ctx.streamId ?? '?')} is not part of ${recording(ctx)} (it was never added, or it stopped publishing); nothing to remove.`;
      }
      return unknownArchive(ctx);
    case 'clear-storage':
      return `${capitalize(project(ctx))} has no upload target; there is nothing to clear.`;
    case 'list':
      return `The video service did not find the recordings of ${project(ctx)}; check the project's settings.`;
    default:
      return unknownArchive(ctx);
  }
}

function badRequest(err: VideoApiError, ctx: ArchiveErrorContext): string {
  const text = said(err) ?? '';
  switch (ctx.operation) {
    case 'start':
      if (/client|connect/i.test(text)) return notFound(err, ctx);
      break;
    case 'read':
    case 'stop':
      if (/archive id|invalid archive/i.test(text) || text === '') return unknownArchive(ctx);
      break;
    case 'layout':
      if (/layout class/i.test(text)) {
        return 'That layout needs layout classes on the session’s streams (e.g. `focus` on the speaker); set them with `/streams` → *Edit layout classes*, or use `--layout bestFit`.';
      }
      if (/composed|individual/i.test(text)) return `${capitalize(recording(ctx))} records one file per stream; layouts apply only to composed recordings.`;
      if (/archive id|invalid archive/i.test(text)) return unknownArchive(ctx);
      break;
    case 'add-stream':
    case 'remove-stream':
      if (/auto|manual|streamMode/i.test(text)) {
        return `${capitalize(recording(ctx))} records every stream (stream mode *auto*); choosing streams needs a recording started with \`--manual\`.`;
      }
      if (/archive id|invalid archive/i.test(text)) return unknownArchive(ctx);
      break;
    default:
      break;
  }
  return `The video service rejected the request as invalid${saidEscaped(err)}; nothing was changed.`;
}

/** One mrkdwn sentence (or two) for an error from a recording operation. */
export function describeArchiveError(err: unknown, ctx: ArchiveErrorContext): string {
  if (err instanceof VideoValidationError) {
    return `${escapeAndTruncate(err.message.replace(/\. Example: .*$/s, ''), 500)} — nothing was sent; fix it and try again.`;
  }
  if (err instanceof VideoAuthError) {
    return `The video service refused the credentials of ${project(ctx)} (wrong API key or secret, or the project is suspended); nothing was changed. Ask an admin to check the project's key and status.`;
  }
  if (err instanceof VideoNotFoundError) return notFound(err, ctx);
  if (err instanceof VideoConflictError) return ctx.operation === 'start' ? startConflict(err, ctx) : wrongStatus(ctx);
  if (err instanceof VideoRateLimitError) {
    const wait = err.retryAfterMs ? ` in ${Math.max(1, Math.ceil(err.retryAfterMs / 1000))} s` : ' in a moment';
    return `The video service is limiting how fast we call it; nothing was changed. Try again${wait}.`;
  }
  const uncertain = uncertainOutcome(err, '`/record list`');
  if (uncertain) return uncertain;
  if (err instanceof VideoApiError) {
    if (err.status === 400) return badRequest(err, ctx);
    if (err.status !== undefined && err.status >= 500) {
      return `The video service did not answer properly (error ${err.status}); nothing was changed. Try again in a moment.`;
    }
    return `The video service refused the request${saidEscaped(err)}; nothing was changed.`;
  }
  return 'Something went wrong on our side; it was logged. Try again, or ask an admin to look at the vidops logs.';
}

/** Why the recording cannot undergo the operation in its current status (read before trying). */
export function archiveStatusMessage(ctx: ArchiveErrorContext): SlackMessage {
  return textMessage(`:warning: ${wrongStatus(ctx)}`);
}

export function archiveErrorMessage(err: unknown, ctx: ArchiveErrorContext): SlackMessage {
  return textMessage(`:warning: ${describeArchiveError(err, ctx)}`);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
