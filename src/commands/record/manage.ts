/**
 * What `/record` does with recordings it names by ID, and its lists: list pages (also behind
 * the "More" button), show, delete (after a confirmation), layout, and stream selection.
 */
import { type Archive, type Layout, VideoConflictError, VideoNotFoundError } from '../../api';
import type { ProjectClient } from '../../projects';
import { replyEphemeral } from '../../slack/respond';
import { performChange, type ChangeResult } from '../../interaction/change';
import { DELETABLE_STATUSES, recordingContext, recordingKind } from '../../kinds/recording';
import { archiveSnapshot } from '../../poller/snapshot';
import { LIST_PAGE_SIZE, archiveListMessage, deleteConfirmCard } from '../../views/archive';
import { archiveErrorMessage, archiveStatusMessage } from '../../views/archive-errors';
import { recordingDeletedNotice, recordingLayoutNotice, recordingStreamNotice } from '../../views/archive-notices';
import type { ArchivePage } from '../../views/archive-values';
import { recordAudit } from '../../interaction/audit';
import type { Interaction } from '../../interaction/interaction';
import { statusOf } from './perform';
import type { ArchiveRefTarget } from './stop';

/** One page of recordings: a session's (`s`) or the whole project's. */
export async function showArchivePage(ix: Interaction, page: ArchivePage): Promise<void> {
  try {
    const result = await ix.services.projects.client(page.p).archives.list({ offset: page.o, count: LIST_PAGE_SIZE, ...(page.s ? { sessionId: page.s } : {}) });
    // A short page is the last one, whatever total the service reports.
    const total = result.items.length < LIST_PAGE_SIZE ? page.o + result.items.length : Math.max(result.count, page.o + result.items.length);
    await replyEphemeral(ix, archiveListMessage(result.items, { projectName: page.p, sessionId: page.s, alias: page.a, offset: page.o, total }));
  } catch (error) {
    ix.logger.warn('listing recordings failed', { error });
    await replyEphemeral(ix, archiveErrorMessage(error, { operation: 'list', project: page.p, sessionId: page.s, alias: page.a }));
  }
}

/** Reads one recording; on failure the asker is told and undefined comes back. */
export async function readArchive(ix: Interaction, target: ArchiveRefTarget): Promise<Archive | undefined> {
  try {
    return await ix.services.projects.client(target.projectName).archives.get(target.archiveId);
  } catch (error) {
    ix.logger.info('reading a recording failed', { archive: target.archiveId, error });
    await replyEphemeral(ix, archiveErrorMessage(error, { operation: 'read', project: target.projectName, archiveId: target.archiveId }));
    return undefined;
  }
}

export async function showArchive(ix: Interaction, target: ArchiveRefTarget): Promise<void> {
  const archive = await readArchive(ix, target);
  if (!archive) return;
  const card = recordingKind.render({
    resourceId: archive.id,
    sessionId: archive.sessionId,
    projectName: target.projectName,
    state: archiveSnapshot(archive),
    context: recordingContext(archive, target.alias ? { alias: target.alias } : {}),
    actions: [],
    now: ix.services.clock(),
  });
  await replyEphemeral(ix, card);
}

/** `/record delete <id>`: the confirmation card, or at once why it cannot be deleted. */
export async function confirmDelete(ix: Interaction, target: ArchiveRefTarget): Promise<void> {
  const archive = await readArchive(ix, target);
  if (!archive) return;
  if (!DELETABLE_STATUSES.includes(archive.status)) {
    await replyEphemeral(ix, archiveStatusMessage({ operation: 'delete', project: target.projectName, archiveId: archive.id, status: archive.status }));
    return;
  }
  await replyEphemeral(ix, deleteConfirmCard(archive, { projectName: target.projectName }));
}

/**
 * Deletes after reading the recording first: its name and status make the notice, and a
 * recording that cannot be deleted is explained without a refusal from the service (whose 403
 * would not say whether the ID or the project was wrong).
 */
export async function deleteRecording(ix: Interaction, target: ArchiveRefTarget): Promise<ChangeResult<Archive> | undefined> {
  const archive = await readArchive(ix, target);
  if (!archive) return undefined;
  if (!DELETABLE_STATUSES.includes(archive.status)) {
    await recordAudit(ix, {
      command: '/record delete',
      target: `recording ${archive.id}`,
      projectName: target.projectName,
      outcome: 'error',
      error: `status ${archive.status}`,
    });
    await replyEphemeral(ix, archiveStatusMessage({ operation: 'delete', project: target.projectName, archiveId: archive.id, status: archive.status }));
    return undefined;
  }
  return performChange(ix, {
    command: '/record delete',
    target: `recording ${archive.id}`,
    projectName: target.projectName,
    call: async (video): Promise<Archive> => {
      await video.archives.delete(archive.id);
      return { ...archive, status: 'deleted', url: null };
    },
    notice: () =>
      recordingDeletedNotice(
        ix.userId,
        { projectName: target.projectName, archiveId: archive.id, name: archive.name, sessionId: archive.sessionId, alias: target.alias },
        archive.status === 'uploaded',
      ),
    failure: async (error, video) =>
      archiveErrorMessage(error, {
        operation: 'delete',
        project: target.projectName,
        archiveId: archive.id,
        status: error instanceof VideoConflictError ? ((await statusOf(video, archive.id)) ?? archive.status) : archive.status,
      }),
    card: (deleted) => ({ kind: 'archive', resourceId: archive.id, action: 'delete', state: archiveSnapshot(deleted) }),
  });
}

/** After a refusal of a change to a running recording: its status, to say why. */
async function statusAfter(error: unknown, video: ProjectClient, archiveId: string): Promise<string | undefined> {
  const worthReading = error instanceof VideoConflictError || error instanceof VideoNotFoundError || (error as { status?: number }).status === 400;
  return worthReading ? statusOf(video, archiveId) : undefined;
}

export async function changeLayout(ix: Interaction, target: ArchiveRefTarget, layout: Layout): Promise<void> {
  await performChange(ix, {
    command: '/record layout',
    target: `recording ${target.archiveId} layout ${layout.type}${layout.screenshareType ? ` screenshare ${layout.screenshareType}` : ''}`,
    projectName: target.projectName,
    call: (video) => video.archives.setLayout(target.archiveId, layout),
    notice: () => recordingLayoutNotice(ix.userId, { projectName: target.projectName, archiveId: target.archiveId }, layout),
    failure: async (error, video) =>
      archiveErrorMessage(error, {
        operation: 'layout',
        project: target.projectName,
        archiveId: target.archiveId,
        status: error instanceof VideoConflictError ? await statusOf(video, target.archiveId) : undefined,
      }),
    card: () => ({ kind: 'archive', resourceId: target.archiveId, action: 'layout', detail: layout.type }),
  });
}

export async function changeStreams(
  ix: Interaction,
  target: ArchiveRefTarget,
  change: { streamId: string; action: 'add' | 'remove'; hasAudio?: boolean; hasVideo?: boolean },
): Promise<void> {
  const media = {
    ...(change.hasAudio !== undefined ? { hasAudio: change.hasAudio } : {}),
    ...(change.hasVideo !== undefined ? { hasVideo: change.hasVideo } : {}),
  };
  await performChange(ix, {
    command: `/record ${change.action}`,
    target: `stream ${change.streamId} in recording ${target.archiveId}`,
    projectName: target.projectName,
    call: (video) =>
      change.action === 'add'
        ? video.archives.addStream(target.archiveId, change.streamId, media)
        : video.archives.removeStream(target.archiveId, change.streamId),
    notice: () => recordingStreamNotice(ix.userId, { projectName: target.projectName, archiveId: target.archiveId }, change),
    failure: async (error, video) =>
      archiveErrorMessage(error, {
        operation: change.action === 'add' ? 'add-stream' : 'remove-stream',
        project: target.projectName,
        archiveId: target.archiveId,
        streamId: change.streamId,
        status: await statusAfter(error, video, target.archiveId),
      }),
    card: () => ({ kind: 'archive', resourceId: target.archiveId, action: `${change.action}-stream`, detail: change.streamId }),
  });
}
