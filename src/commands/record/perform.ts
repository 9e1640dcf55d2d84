/** What the recording commands share: the session's recordings in progress, a recording's status after a refusal. */
import { VideoNotFoundError } from '../../api';
import type { Archive } from '../../api';
import { RUNNING_STATUSES } from '../../kinds/recording';
import type { ProjectClient } from '../../projects';

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
