/**
 * The project's recording upload target: set from the modal, removed after a confirmation.
 * Keys go from the submitted form to the adapter and nowhere else: the audit target, the notice
 * and the logs only ever see the summary (type, bucket or container, host, fallback).
 */
import type { UploadTarget } from '../../api';
import { replyEphemeral } from '../../slack/respond';
import { openForm } from '../../slack/slack-failure';
import { warning } from '../../views/blocks';
import { EMPTY_STORAGE_FORM, type StorageSummary, storageClearConfirmCard, storageClearedNotice, storageModal, storageSetNotice } from '../../views/storage';
import type { Interaction } from '../../interaction/interaction';
import type { CommandInvocation } from '../command';
import { type ChangeResult, performChange } from '../../interaction/change';
import { archiveErrorMessage } from '../../views/archive-errors';

export function summaryOf(target: UploadTarget): StorageSummary {
  const fallback = target.fallback ?? 'none';
  if (target.type === 's3') {
    return { type: 's3', place: target.config.bucket, ...(target.config.endpoint ? { host: target.config.endpoint } : {}), fallback };
  }
  return { type: 'blobstore', place: target.config.container, ...(target.config.domain ? { host: target.config.domain } : {}), fallback };
}

export async function setUploadTarget(
  ix: Interaction,
  projectName: string,
  target: UploadTarget,
  options: { channelId?: string; quiet?: boolean } = {},
): Promise<ChangeResult<StorageSummary>> {
  const summary = summaryOf(target);
  return performChange(
    ix,
    {
      command: '/record storage',
      target: `upload target ${summary.type} ${summary.place} fallback ${summary.fallback}`,
      projectName,
      channelId: options.channelId,
      // The service echoes the keys; the adapter masks them, and only the summary goes on.
      call: async (video) => {
        await video.archives.setUploadTarget(target);
        return summary;
      },
      notice: () => storageSetNotice(ix.userId, projectName, summary),
      failure: async (error) => archiveErrorMessage(error, { operation: 'set-storage', project: projectName }),
    },
    { quiet: options.quiet },
  );
}

export async function clearUploadTarget(ix: Interaction, projectName: string): Promise<ChangeResult<void>> {
  return performChange(ix, {
    command: '/record storage clear',
    target: 'upload target',
    projectName,
    call: (video) => video.archives.deleteUploadTarget(),
    notice: () => storageClearedNotice(ix.userId, projectName),
    failure: async (error) => archiveErrorMessage(error, { operation: 'clear-storage', project: projectName }),
  });
}

/** `/record storage`: the form; `/record storage clear`: the confirmation card. */
export async function runStorage(ix: CommandInvocation, projectName: string, clear: boolean): Promise<void> {
  if (clear) {
    await replyEphemeral(ix, storageClearConfirmCard(projectName));
    return;
  }
  if (!ix.triggerId) {
    await replyEphemeral(ix, warning('Slack did not send what is needed to open the form; run `/record storage` again.'));
    return;
  }
  await openForm(ix.client, {
    trigger_id: ix.triggerId,
    view: storageModal(EMPTY_STORAGE_FORM, { p: projectName, ...(ix.channelId ? { c: ix.channelId } : {}) }),
  });
}
