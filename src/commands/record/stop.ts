/**
 * Stopping a recording (irreversible: src/views/confirmation-policy.ts). Typed, the command
 * answers with one card — the recording named, or the session's recordings in progress — whose
 * Stop buttons act; a Stop on any other card asks with Slack's confirm dialog.
 */
import { type Archive, VideoConflictError } from '../../api';
import { replyEphemeral } from '../../slack/respond';
import { code } from '../../slack/mrkdwn';
import { stopChoiceMessage } from '../../views/archive';
import { archiveErrorMessage, archiveStatusMessage } from '../../views/archive-errors';
import { recordingStoppedNotice } from '../../views/archive-notices';
import { warning } from '../../views/blocks';
import { type ChangeResult, performChange } from '../../interaction/change';
import type { Interaction } from '../../interaction/interaction';
import { archiveSnapshot } from '../../poller/snapshot';
import { withAlias } from '../../interaction/session-ref';
import { readArchive } from './manage';
import { runningArchives, statusOf } from './perform';
import type { SessionTarget } from './start';

export interface ArchiveRefTarget {
  projectName: string;
  archiveId: string;
  alias?: string;
}

export async function stopRecording(ix: Interaction, target: ArchiveRefTarget, options: { quiet?: boolean } = {}): Promise<ChangeResult<Archive>> {
  return performChange(
    ix,
    {
      command: '/record stop',
      target: `recording ${target.archiveId}`,
      projectName: target.projectName,
      call: (video) => video.archives.stop(target.archiveId),
      check: { k: 'archive', r: target.archiveId },
      notice: (archive) =>
        recordingStoppedNotice(ix.userId, {
          projectName: target.projectName,
          archiveId: archive.id,
          name: archive.name,
          sessionId: archive.sessionId,
          alias: target.alias,
        }),
      failure: async (error, video) =>
        archiveErrorMessage(error, {
          operation: 'stop',
          project: target.projectName,
          archiveId: target.archiveId,
          status: error instanceof VideoConflictError ? await statusOf(video, target.archiveId) : undefined,
        }),
      card: (archive) => ({ kind: 'archive', resourceId: archive.id, action: 'stop', state: archiveSnapshot(archive) }),
      // Reported in the notice's thread, or on the recording's card when this channel already has one.
      track: (archive) => ({ kind: 'archive', resourceId: archive.id, sessionId: archive.sessionId, initialState: archiveSnapshot(archive), as: 'thread' }),
    },
    options,
  );
}

/** `/record stop <id>`: the card asking to stop it, or at once why it cannot be stopped. */
export async function confirmStop(ix: Interaction, target: ArchiveRefTarget): Promise<void> {
  const archive = await readArchive(ix, target);
  if (!archive) return;
  // A paused recording is refused by the service too: say why now rather than after the click.
  if (archive.status !== 'started') {
    await replyEphemeral(ix, archiveStatusMessage({ operation: 'stop', project: target.projectName, archiveId: archive.id, status: archive.status }));
    return;
  }
  const session = await withAlias(ix.services, ix.teamId, {
    projectName: target.projectName,
    sessionId: archive.sessionId,
    ...(target.alias ? { alias: target.alias } : {}),
  });
  await replyEphemeral(ix, stopChoiceMessage([archive], session));
}

/** `/record stop` without an ID: the session's recordings in progress to choose from. */
export async function offerStopChoice(ix: Interaction, s: SessionTarget): Promise<void> {
  let running: Archive[];
  try {
    running = await runningArchives(ix.services.projects.client(s.projectName), s.sessionId);
  } catch (error) {
    ix.logger.warn('listing recordings failed', { error });
    await replyEphemeral(ix, archiveErrorMessage(error, { operation: 'list', project: s.projectName, sessionId: s.sessionId, alias: s.alias }));
    return;
  }
  if (running.length === 0) {
    await replyEphemeral(ix, warning(`Nothing is being recorded in session ${code(s.alias ?? s.sessionId)} right now; \`/record list\` shows its recordings.`));
    return;
  }
  await replyEphemeral(ix, stopChoiceMessage(running, s));
}
