/**
 * The one path of "an action changed a resource": call the video service → audit the outcome →
 * update the resource's cards at once (model, redraw, "Stopped by @ana" in their threads) →
 * the notice in the channel. A failure goes to the asker as one sentence with a next step.
 * The call is raced against the request's overall bound (still-waiting.ts): when the bound passes
 * first, the asker hears that the change may or may not have taken effect, with a Check button,
 * the audit row says the outcome is unknown, and the late answer is logged and dropped.
 */
import { VideoApiError } from '../api';
import { mayHaveTakenEffect } from '../api/errors';
import type { Snapshot, WatchKind } from '../poller/snapshot';
import type { CardModel } from '../poller/watch';
import type { ProjectClient } from '../projects';
import { type AnnounceResult, announce, replyEphemeral } from '../slack/respond';
import type { SlackMessage } from '../views/blocks';
import { type ErrorContext, auditErrorCode, errorMessage } from '../views/errors';
import { type CheckTarget, type CheckValue, changeNoAnswerMessage, withCheckButton } from '../views/still-waiting';
import { recordAudit } from './audit';
import { type CardAction, applyToCards } from './cards';
import type { Interaction } from './interaction';
import { currentPatience } from './still-waiting';

interface ChangeBase<T> {
  /** As audited, e.g. `/record stop`. */
  command: string;
  /** As audited, e.g. `recording 5f0e…`; never a key or secret. */
  target: string;
  projectName: string;
  call(video: ProjectClient): Promise<T>;
  /** The in-channel notice for the result. */
  notice(result: T): SlackMessage;
  /** The resource whose cards the result changes, and how. */
  card?(result: T): CardAction | undefined;
  /** What the result started, handed to the poller with the notice as its card (see `Started`). */
  track?(result: T): Started | undefined;
  /** Where the notice goes (default: the interaction's channel). */
  channelId?: string;
  /** What the Check button reads when the service did not answer in time (default: from `errorContext`: the stream, else the session). */
  check?: CheckTarget;
}

/** The failure is worded from `errorContext`, or by `failure` (which may read the service again). */
export type Change<T> = ChangeBase<T> &
  ({ errorContext: ErrorContext; failure?: never } | { failure(error: unknown, video: ProjectClient): Promise<SlackMessage>; errorContext?: never });

/**
 * A resource the change started: the poller follows it and keeps the notice just posted (its
 * card) up to date from the card model; `thread` reports in the notice's thread without
 * redrawing it. A notice that only the asker saw is not followed.
 */
export interface Started {
  kind: WatchKind;
  resourceId: string;
  sessionId: string;
  initialState: Snapshot | undefined;
  card?: CardModel;
  as?: 'card' | 'thread';
}

export type ChangeResult<T> =
  /** `redrawn`: the message ts of each card redrawn at once. */
  { ok: true; result: T; announced: AnnounceResult; redrawn: string[] } | { ok: false; error: unknown; message: SlackMessage };

/** Runs the change. On failure the asker gets the sentence unless `quiet` (shown elsewhere, e.g. in a modal). */
export async function performChange<T>(ix: Interaction, change: Change<T>, options: { quiet?: boolean } = {}): Promise<ChangeResult<T>> {
  // The role is checked again for the project this change touches, whatever was checked before.
  await ix.gate?.(change.projectName);
  const video = ix.services.projects.client(change.projectName);
  const audited = { command: change.command, target: change.target, projectName: change.projectName };
  let result: T;
  try {
    result = await withinBound(change, video);
  } catch (error) {
    if (error instanceof NoAnswerInTime) return noAnswer(ix, change, error, options);
    ix.logger.warn('video service call failed', { command: change.command, project: change.projectName, error });
    await recordAudit(ix, { ...audited, outcome: 'error', error: auditErrorCode(error) });
    const worded = change.failure ? await change.failure(error, video) : errorMessage(error, { project: change.projectName, ...change.errorContext! });
    // The answer was lost or late: the change may have been made, so offer to look.
    const message = error instanceof VideoApiError && mayHaveTakenEffect(error) ? withCheckButton(worded, checkOf(change)) : worded;
    if (!options.quiet) await replyEphemeral(ix, message);
    return { ok: false, error, message };
  }
  await recordAudit(ix, { ...audited, outcome: 'ok' });
  const cards = change.card?.(result);
  const redrawn = cards ? await applyToCards(ix, cards) : [];
  const announced = await announce(ix, change.notice(result), change.channelId ?? ix.channelId);
  const started = change.track?.(result);
  if (started) await track(ix, change.projectName, started, announced);
  return { ok: true, result, announced, redrawn };
}

/** The request's bound passed before the video service answered the change. */
export class NoAnswerInTime extends Error {
  constructor(readonly seconds: number) {
    super(`the video service did not answer within ${seconds} s`);
    this.name = 'NoAnswerInTime';
  }
}

async function withinBound<T>(change: Change<T>, video: ProjectClient): Promise<T> {
  const patience = currentPatience();
  // Outside a request, or past its bound already (its answer stands), the call is simply awaited.
  if (!patience || patience.boundPassed) return change.call(video);
  const raced = await patience.race(change.call(video), change.command);
  if (!raced.answered) throw new NoAnswerInTime(patience.boundSeconds);
  return raced.value;
}

function checkOf<T>(change: Change<T>): CheckValue | undefined {
  const context = change.errorContext;
  const target: CheckTarget | undefined =
    change.check ??
    (context?.sessionId && context.streamId
      ? { k: 'stream', s: context.sessionId, t: context.streamId }
      : context?.sessionId
        ? { k: 'session', s: context.sessionId }
        : undefined);
  return target && { ...target, p: change.projectName, o: change.command };
}

async function noAnswer<T>(ix: Interaction, change: Change<T>, error: NoAnswerInTime, options: { quiet?: boolean }): Promise<ChangeResult<T>> {
  ix.logger.warn('the video service did not answer a change within the bound; its outcome is unknown', {
    command: change.command,
    project: change.projectName,
    seconds: error.seconds,
  });
  await recordAudit(ix, {
    command: change.command,
    target: change.target,
    projectName: change.projectName,
    outcome: 'error',
    error: `timeout: no answer within ${error.seconds} s, outcome unknown`,
  });
  const message = changeNoAnswerMessage(error.seconds, change.command, checkOf(change));
  if (options.quiet) return { ok: false, error, message };
  await replyEphemeral(ix, message);
  // This answer stands: whatever the request would say later would contradict it.
  currentPatience()?.close();
  return { ok: false, error, message };
}

/** Only what has a card in the channel is followed; a failure here costs the card's updates, never the change. */
async function track(ix: Interaction, projectName: string, started: Started, announced: AnnounceResult): Promise<void> {
  if (announced.delivered !== 'channel' || announced.ts === undefined || announced.channel === undefined) {
    ix.logger.info('the notice is not in a channel; not followed', { kind: started.kind, resourceId: started.resourceId });
    return;
  }
  const where = started.as === 'thread' ? { threadTs: announced.ts } : { messageTs: announced.ts };
  try {
    await ix.services.track({
      kind: started.kind,
      resourceId: started.resourceId,
      sessionId: started.sessionId,
      target: { teamId: ix.teamId, channelId: announced.channel, projectName, ...where },
      initialState: started.initialState,
      ...(started.card !== undefined && { card: started.card }),
    });
  } catch (error) {
    ix.logger.warn('could not hand what was started to the poller; its card will not be updated', {
      kind: started.kind,
      resourceId: started.resourceId,
      error,
    });
  }
}
