/**
 * Buttons of `/record`: Stop, Download and Delete (on recording cards, list entries and the
 * stop/delete cards), "More" under a list page, and the confirmed "Remove target" of
 * `/record storage clear`. Every click checks the role again: a card outlives roles. Also
 * registers the start and upload-target modals.
 */
import type { App, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { authorize } from '../commands/authorize';
import type { Interaction } from '../commands/command';
import { deleteRecording, showArchivePage } from '../commands/record/manage';
import { stopRecording } from '../commands/record/stop';
import { clearUploadTarget } from '../commands/record/storage';
import type { Services } from '../services';
import { code, escapeAndTruncate } from '../slack/mrkdwn';
import { replyEphemeral } from '../slack/respond';
import { type ArchiveCardData, archiveCard, downloadMessage, notDownloadableMessage } from '../views/archive';
import { archiveErrorMessage } from '../views/archive-errors';
import { type ArchiveTarget, ArchivePageSchema, ArchiveTargetSchema, StorageTargetSchema } from '../views/archive-values';
import { warning } from '../views/blocks';
import { resolvedCard } from '../views/confirm';
import { RECORD_ACTION } from '../views/ids';
import { decodeValue } from '../views/values';
import { fromBlockAction } from './context';
import * as startModal from './record-start';
import * as storageModal from './record-storage';

type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & { client: App['client'] };

const STALE = 'This button’s card is from an older version of vidops; run `/record list` again.';
/** How long a download URL works (spec: 10 minutes). */
const URL_VALIDITY_MS = 10 * 60 * 1000;

function recordingLabel(name: string | undefined | null, archiveId: string): string {
  return name ? `*${escapeAndTruncate(name, 100)}*` : code(archiveId);
}

/** Redraws the recording card the button sat on (in place, through the click's response_url). */
async function redrawCard(ix: Interaction, target: ArchiveTarget, archive: ArchiveCardData): Promise<void> {
  if (target.o !== 'card' || !ix.respond) return;
  const card = archiveCard(archive, { projectName: target.p, ...(target.a ? { alias: target.a } : {}), ...(target.u ? { startedBy: target.u } : {}) });
  await ix.respond({ ...card, replace_original: true }).catch((error: unknown) => ix.logger.warn('could not redraw the recording card', { error }));
}

/** After a refused click on a card: the card shows the recording as it is now. */
async function refreshCard(ix: Interaction, target: ArchiveTarget): Promise<void> {
  if (target.o !== 'card') return;
  try {
    await redrawCard(ix, target, await ix.services.projects.client(target.p).archives.get(target.r));
  } catch (error) {
    ix.logger.info('could not re-read the recording to redraw its card', { error });
  }
}

export function register(app: App, services: Services): void {
  app.action<BlockAction<ButtonAction>>(RECORD_ACTION.stop, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    await services.ackGate.idle();
    const ix = fromBlockAction(services, client, body, respond, RECORD_ACTION.stop);
    const target = decodeValue(ArchiveTargetSchema, action.value);
    if (!target) return replyEphemeral(ix, warning(STALE));
    const allowed = await authorize(ix, 'moderator', { what: '/record stop', command: '/record stop', target: `recording ${target.r}`, projectName: target.p });
    if (!allowed) return;
    const done = await stopRecording(ix, { projectName: target.p, archiveId: target.r, ...(target.a ? { alias: target.a } : {}) });
    if (!done.ok) return refreshCard(ix, target);
    if (target.o === 'card') return redrawCard(ix, target, done.result);
    await replyEphemeral(ix, resolvedCard(`:white_check_mark: Recording ${recordingLabel(done.result.name, target.r)} was stopped.`), { replaceOriginal: true });
  });

  app.action<BlockAction<ButtonAction>>(RECORD_ACTION.download, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    await services.ackGate.idle();
    const ix = fromBlockAction(services, client, body, respond, RECORD_ACTION.download);
    const target = decodeValue(ArchiveTargetSchema, action.value);
    if (!target) return replyEphemeral(ix, warning(STALE));
    const allowed = await authorize(ix, 'viewer', { what: 'Download', command: '/record download', target: `recording ${target.r}`, projectName: target.p });
    if (!allowed) return;
    // URLs expire after 10 minutes: every click reads a fresh one; it is shown, never logged.
    try {
      const archive = await services.projects.client(target.p).archives.get(target.r);
      if (archive.status === 'available' && archive.url) {
        await replyEphemeral(ix, downloadMessage(archive, archive.url, services.clock() + URL_VALIDITY_MS));
      } else {
        await replyEphemeral(ix, notDownloadableMessage(archive));
        await redrawCard(ix, target, archive);
      }
    } catch (error) {
      ix.logger.warn('reading the recording for a download failed', { archive: target.r, error });
      await replyEphemeral(ix, archiveErrorMessage(error, { operation: 'read', project: target.p, archiveId: target.r }));
    }
  });

  app.action<BlockAction<ButtonAction>>(RECORD_ACTION.delete, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    await services.ackGate.idle();
    const ix = fromBlockAction(services, client, body, respond, RECORD_ACTION.delete);
    const target = decodeValue(ArchiveTargetSchema, action.value);
    if (!target) return replyEphemeral(ix, warning(STALE));
    const allowed = await authorize(ix, 'admin', { what: '/record delete', command: '/record delete', target: `recording ${target.r}`, projectName: target.p });
    if (!allowed) return;
    const done = await deleteRecording(ix, { projectName: target.p, archiveId: target.r, ...(target.a ? { alias: target.a } : {}) });
    if (!done?.ok) return refreshCard(ix, target);
    if (target.o === 'card') return redrawCard(ix, target, done.result);
    await replyEphemeral(ix, resolvedCard(`:white_check_mark: Recording ${recordingLabel(done.result.name, target.r)} was deleted.`), { replaceOriginal: true });
  });

  app.action<BlockAction<ButtonAction>>(RECORD_ACTION.more, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    await services.ackGate.idle();
    const ix = fromBlockAction(services, client, body, respond, RECORD_ACTION.more);
    const page = decodeValue(ArchivePageSchema, action.value);
    if (!page) return replyEphemeral(ix, warning(STALE));
    const allowed = await authorize(ix, 'viewer', { what: '/record list', command: '/record list', target: page.s ?? 'all', projectName: page.p });
    if (!allowed) return;
    await showArchivePage(ix, page);
  });

  app.action<BlockAction<ButtonAction>>(RECORD_ACTION.clearStorage, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    await services.ackGate.idle();
    const ix = fromBlockAction(services, client, body, respond, RECORD_ACTION.clearStorage);
    const target = decodeValue(StorageTargetSchema, action.value);
    if (!target) return replyEphemeral(ix, warning('This button’s card is from an older version of vidops; run `/record storage clear` again.'));
    const allowed = await authorize(ix, 'admin', { what: '/record storage clear', command: '/record storage clear', target: 'upload target', projectName: target.p });
    if (!allowed) return;
    const done = await clearUploadTarget(ix, target.p);
    if (done.ok) {
      await replyEphemeral(ix, resolvedCard(`:white_check_mark: Project *${escapeAndTruncate(target.p, 100)}* no longer uploads its recordings.`), { replaceOriginal: true });
    }
  });

  startModal.register(app, services);
  storageModal.register(app, services);
}
