/**
 * Starting a recording, from the typed command or the start form: the call, the recording card
 * in the channel (chat.postMessage, so the poller can redraw it) and the watch that keeps it up
 * to date.
 */
import { type Archive, type StartArchiveOptions, VideoConflictError } from '../../api';
import type { ProjectClient } from '../../projects';
import type { Services } from '../../services';
import { replyEphemeral } from '../../slack/respond';
import { openForm } from '../../slack/slack-failure';
import { type ChangeResult, performChange } from '../../interaction/change';
import { recordingContext, recordingKind } from '../../kinds/recording';
import { archiveSnapshot } from '../../poller/snapshot';
import { archiveErrorMessage } from '../../views/archive-errors';
import { EMPTY_START_FORM, recordStartModal } from '../../views/archive-modal';
import { LIMITS, type PlainTextOption, warning } from '../../views/blocks';
import { recentOption } from '../../views/session-options';
import type { Interaction } from '../../interaction/interaction';
import type { CommandInvocation } from '../command';
import { encodeSessionOption, resolveSession } from '../../interaction/session-ref';
import { runningArchives } from './perform';
import { startModel } from '../../kinds';

export interface SessionTarget {
  projectName: string;
  sessionId: string;
  alias?: string;
}

/** Starts the recording and posts its card; failures go to the asker unless `quiet`. */
export async function startRecording(
  ix: Interaction,
  s: SessionTarget,
  options: Omit<StartArchiveOptions, 'sessionId'>,
  settings: { channelId?: string; quiet?: boolean } = {},
): Promise<ChangeResult<Archive>> {
  const tag = options.multiArchiveTag;
  const who = { startedBy: ix.userId, ...(s.alias ? { alias: s.alias } : {}) };
  return performChange(
    ix,
    {
      command: '/record start',
      target: `session ${s.sessionId}${tag !== undefined ? ` tag ${tag}` : ''}`,
      projectName: s.projectName,
      channelId: settings.channelId,
      call: (video) => video.archives.start({ sessionId: s.sessionId, ...options }),
      check: { k: 'recordings', s: s.sessionId, ...(s.alias ? { a: s.alias } : {}) },
      notice: (archive) =>
        recordingKind.render({
          resourceId: archive.id,
          sessionId: archive.sessionId,
          projectName: s.projectName,
          state: archiveSnapshot(archive),
          context: recordingContext(archive, who),
          actions: [],
          now: ix.services.clock(),
        }),
      failure: async (error, video) =>
        archiveErrorMessage(error, {
          operation: 'start',
          project: s.projectName,
          sessionId: s.sessionId,
          alias: s.alias,
          tag,
          sessionBusy: error instanceof VideoConflictError ? await isRecorded(video, s.sessionId) : undefined,
        }),
      track: (archive) => ({
        kind: 'archive',
        resourceId: archive.id,
        sessionId: archive.sessionId,
        initialState: archiveSnapshot(archive),
        card: startModel(recordingContext(archive, who)),
      }),
    },
    { quiet: settings.quiet },
  );
}

/** Whether the session has a recording in progress; undefined when that cannot be read. */
async function isRecorded(video: ProjectClient, sessionId: string): Promise<boolean | undefined> {
  try {
    return (await runningArchives(video, sessionId)).length > 0;
  } catch {
    return undefined;
  }
}

/** The channel's session as the form's pre-selected option, when the channel has one. */
async function channelSessionOption(services: Services, ix: Interaction): Promise<PlainTextOption | undefined> {
  if (!ix.channelId) return undefined;
  const binding = await services.store.getChannelBinding(ix.teamId, ix.channelId).catch(() => undefined);
  if (!binding?.sessionId) return undefined;
  const resolved = await resolveSession(services, ix, undefined);
  if (!resolved.ok) return undefined;
  const s = resolved.value;
  if (encodeSessionOption(s.projectName, s.sessionId).length > LIMITS.optionValue) return undefined;
  return recentOption(
    { teamId: ix.teamId, projectName: s.projectName, sessionId: s.sessionId, usedBy: ix.userId, usedAt: services.clock() },
    encodeSessionOption,
    s.alias,
  );
}

/** `/record start` with nothing after it: the start form, with the channel's session picked. */
export async function openStartModal(ix: CommandInvocation): Promise<void> {
  if (!ix.triggerId) {
    await replyEphemeral(ix, warning('Slack did not send what is needed to open the form; name the session instead: `/record start <session>`.'));
    return;
  }
  const session = await channelSessionOption(ix.services, ix);
  await openForm(ix.client, {
    trigger_id: ix.triggerId,
    view: recordStartModal({ ...EMPTY_START_FORM, ...(session ? { session } : {}) }, ix.channelId ? { c: ix.channelId } : {}),
  });
}
