/**
 * What the recording commands share: the session's recordings in progress, a recording's status
 * after a refusal, and handing a new recording (with its card model) to the poller.
 */
import { VideoNotFoundError } from '../../api';
import type { Archive } from '../../api';
import { startModel } from '../../kinds';
import { RUNNING_STATUSES, type RecordingContext } from '../../kinds/recording';
import { archiveSnapshot } from '../../poller/snapshot';
import type { ProjectClient } from '../../services';
import type { AnnounceResult } from '../../slack/respond';
import type { Interaction } from '../../interaction/interaction';

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
  context?: RecordingContext,
): Promise<void> {
  if (announced.delivered !== 'channel' || !announced.ts || !announced.channel) return;
  try {
    await ix.services.track({
      kind: 'archive',
      resourceId: archive.id,
      sessionId: archive.sessionId,
      target: { teamId: ix.teamId, channelId: announced.channel, projectName, ...(as === 'card' ? { messageTs: announced.ts } : { threadTs: announced.ts }) },
      initialState: archiveSnapshot(archive),
      ...(context && { card: startModel(context) }),
    });
  } catch (error) {
    ix.logger.warn('could not hand the recording to the poller; its card will not be updated', { archive: archive.id, error });
  }
}
