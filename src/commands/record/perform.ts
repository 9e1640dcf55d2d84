/**
 * The path of every change to a recording, as `performStateChange` (call → audit → notice in the
 * channel), with the failure worded for recordings: after a refusal the change reads what the
 * sentence needs (the recording's status, whether the session is already recorded) before the
 * asker is told.
 */
import { VideoNotFoundError } from '../../api';
import type { Archive } from '../../api';
import { archiveSnapshot } from '../../poller/snapshot';
import type { ProjectClient } from '../../services';
import { type AnnounceResult, announce, replyEphemeral } from '../../slack/respond';
import { RUNNING_STATUSES } from '../../views/archive';
import { type ArchiveErrorContext, archiveErrorMessage } from '../../views/archive-errors';
import type { SlackMessage } from '../../views/blocks';
import { auditErrorCode } from '../../views/errors';
import { recordAudit } from '../audit';
import type { Interaction } from '../command';

export interface ArchiveChange<T> {
  /** As audited, e.g. `/record stop`. */
  command: string;
  /** As audited, e.g. `recording 5f0e…`; never a key or secret. */
  target: string;
  projectName: string;
  call(video: ProjectClient): Promise<T>;
  /** The in-channel message for the result. */
  notice(result: T): SlackMessage;
  /** What the error sentence needs, read after the failure if need be. */
  context(error: unknown, video: ProjectClient): Promise<ArchiveErrorContext>;
  /** Where the notice goes (default: the interaction's channel). */
  channelId?: string;
}

export type ArchiveChangeResult<T> =
  | { ok: true; result: T; announced: AnnounceResult }
  | { ok: false; error: unknown; message: SlackMessage };

/** Runs the change. On failure the asker gets the sentence unless `quiet` (shown elsewhere, e.g. in a modal). */
export async function performArchiveChange<T>(ix: Interaction, change: ArchiveChange<T>, options: { quiet?: boolean } = {}): Promise<ArchiveChangeResult<T>> {
  const video = ix.services.projects.client(change.projectName);
  let result: T;
  try {
    result = await change.call(video);
  } catch (error) {
    await ix.services.ackGate.idle();
    ix.logger.warn('video service call failed', { command: change.command, project: change.projectName, error });
    await recordAudit(ix, { command: change.command, target: change.target, projectName: change.projectName, outcome: 'error', error: auditErrorCode(error) });
    const message = archiveErrorMessage(error, await change.context(error, video));
    if (!options.quiet) await replyEphemeral(ix, message);
    return { ok: false, error, message };
  }
  await ix.services.ackGate.idle();
  await recordAudit(ix, { command: change.command, target: change.target, projectName: change.projectName, outcome: 'ok' });
  await ix.services.ackGate.idle();
  const announced = await announce(ix, change.notice(result), change.channelId ?? ix.channelId);
  return { ok: true, result, announced };
}

/** The recording's status now, or undefined when it cannot be read. */
export async function statusOf(video: ProjectClient, archiveId: string): Promise<string | undefined> {
  try {
    return (await video.archives.get(archiveId)).status;
  } catch {
    return undefined;
  }
}

/** The session's recordings in progress (started or paused), newest first. */
export async function runningArchives(video: ProjectClient, sessionId: string): Promise<Archive[]> {
  try {
    const page = await video.archives.list({ sessionId, count: 100 });
    return page.items.filter((a) => RUNNING_STATUSES.includes(a.status));
  } catch (error) {
    if (error instanceof VideoNotFoundError) return [];
    throw error;
  }
}

/**
 * Hands the recording to the poller: changes are reported in the thread of the message at
 * `ts` (and, for a card, the card is redrawn). A failure here only costs the updates.
 */
export async function trackArchive(
  ix: Interaction,
  archive: Archive,
  projectName: string,
  announced: AnnounceResult,
  as: 'card' | 'thread',
): Promise<void> {
  if (announced.delivered !== 'channel' || !announced.ts || !announced.channel) return;
  try {
    await ix.services.track({
      kind: 'archive',
      resourceId: archive.id,
      sessionId: archive.sessionId,
      target: { teamId: ix.teamId, channelId: announced.channel, projectName, ...(as === 'card' ? { messageTs: announced.ts } : { threadTs: announced.ts }) },
      initialState: archiveSnapshot(archive),
    });
  } catch (error) {
    ix.logger.warn('could not hand the recording to the poller; its card will not be updated', { archive: archive.id, error });
  }
}
