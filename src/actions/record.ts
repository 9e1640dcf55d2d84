/**
 * Buttons of `/record`: Stop, Download and Delete (on recording cards, list entries and the
 * stop/delete cards), "More" under a list page, and the confirmed "Remove target" of
 * `/record storage clear`. Every click checks the role again: a card outlives roles. Also
 * registers the start and upload-target modals.
 */
import type { App, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { authorize } from '../interaction/authorize';
import type { Interaction } from '../interaction/interaction';
import { deleteRecording, showArchivePage } from '../commands/record/manage';
import { stopRecording } from '../commands/record/stop';
import { clearUploadTarget } from '../commands/record/storage';
import type { Services } from '../services';
import { code, escapeAndTruncate } from '../slack/mrkdwn';
import { replyEphemeral } from '../slack/respond';
import { applyToCards } from '../interaction/cards';
import { type ArchiveCardData, recordingKind } from '../kinds/recording';
import { archiveSnapshot } from '../poller/snapshot';
import { downloadMessage, notDownloadableMessage } from '../views/archive';
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

/** The message the button sat on. */
function clickedTs(body: BlockAction): string | undefined {
  return body.container?.message_ts ?? body.message?.ts;
}

/**
 * Redraws the recording card the button sat on when the change path did not (a card without a
 * watch: an ephemeral `/record show`, or one the poller never took), through the click's
 * response_url, with the context its button carried.
 */
async function redrawClicked(
  ix: Interaction,
  target: ArchiveTarget,
  archive: ArchiveCardData,
  redrawn: readonly string[],
  ts: string | undefined,
): Promise<void> {
  if (target.o !== 'card' || !ix.respond || (ts !== undefined && redrawn.includes(ts))) return;
  const card = recordingKind.render({
    resourceId: archive.id,
    sessionId: archive.sessionId,
    projectName: target.p,
    state: archiveSnapshot({ ...archive, name: archive.name ?? null, reason: archive.reason ?? null }),
    context: { ...(target.a ? { alias: target.a } : {}), ...(target.u ? { startedBy: target.u } : {}) },
    actions: [],
    now: ix.services.clock(),
  });
  await ix.respond({ ...card, replace_original: true }).catch((error: unknown) => ix.logger.warn('could not redraw the recording card', { error }));
}

/** The recording's cards catch up with it as it is now (after a refused click, or a download of a file no longer there). */
async function catchUp(ix: Interaction, target: ArchiveTarget, ts: string | undefined, archive?: ArchiveCardData): Promise<void> {
  if (target.o !== 'card') return;
  try {
    const now = archive ?? (await ix.services.projects.client(target.p).archives.get(target.r));
    const state = archiveSnapshot({ ...now, name: now.name ?? null, reason: now.reason ?? null });
    const redrawn = await applyToCards(ix, { kind: 'archive', resourceId: target.r, state });
    await redrawClicked(ix, target, now, redrawn, ts);
  } catch (error) {
    ix.logger.info('could not re-read the recording to redraw its card', { error });
  }
}

export function register(app: App, services: Services): void {
  app.action<BlockAction<ButtonAction>>(RECORD_ACTION.stop, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    const ix = fromBlockAction(services, client, body, respond, RECORD_ACTION.stop);
    const target = decodeValue(ArchiveTargetSchema, action.value);
    if (!target) return replyEphemeral(ix, warning(STALE));
    const allowed = await authorize(ix, 'moderator', { what: '/record stop', command: '/record stop', target: `recording ${target.r}`, projectName: target.p });
    if (!allowed) return;
    const done = await stopRecording(ix, { projectName: target.p, archiveId: target.r, ...(target.a ? { alias: target.a } : {}) });
    if (!done.ok) return catchUp(ix, target, clickedTs(body));
    if (target.o === 'card') return redrawClicked(ix, target, done.result, done.redrawn, clickedTs(body));
    await replyEphemeral(ix, resolvedCard(`:white_check_mark: Recording ${recordingLabel(done.result.name, target.r)} was stopped.`), {
      replaceOriginal: true,
    });
  });

  app.action<BlockAction<ButtonAction>>(RECORD_ACTION.download, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
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
        await catchUp(ix, target, clickedTs(body), archive);
      }
    } catch (error) {
      ix.logger.warn('reading the recording for a download failed', { archive: target.r, error });
      await replyEphemeral(ix, archiveErrorMessage(error, { operation: 'read', project: target.p, archiveId: target.r }));
    }
  });

  app.action<BlockAction<ButtonAction>>(RECORD_ACTION.delete, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    const ix = fromBlockAction(services, client, body, respond, RECORD_ACTION.delete);
    const target = decodeValue(ArchiveTargetSchema, action.value);
    if (!target) return replyEphemeral(ix, warning(STALE));
    const allowed = await authorize(ix, 'admin', { what: '/record delete', command: '/record delete', target: `recording ${target.r}`, projectName: target.p });
    if (!allowed) return;
    const done = await deleteRecording(ix, { projectName: target.p, archiveId: target.r, ...(target.a ? { alias: target.a } : {}) });
    if (!done?.ok) return catchUp(ix, target, clickedTs(body));
    if (target.o === 'card') return redrawClicked(ix, target, done.result, done.redrawn, clickedTs(body));
    await replyEphemeral(ix, resolvedCard(`:white_check_mark: Recording ${recordingLabel(done.result.name, target.r)} was deleted.`), {
      replaceOriginal: true,
    });
  });

  app.action<BlockAction<ButtonAction>>(RECORD_ACTION.more, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    const ix = fromBlockAction(services, client, body, respond, RECORD_ACTION.more);
    const page = decodeValue(ArchivePageSchema, action.value);
    if (!page) return replyEphemeral(ix, warning(STALE));
    const allowed = await authorize(ix, 'viewer', { what: '/record list', command: '/record list', target: page.s ?? 'all', projectName: page.p });
    if (!allowed) return;
    await showArchivePage(ix, page);
  });

  app.action<BlockAction<ButtonAction>>(RECORD_ACTION.clearStorage, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    const ix = fromBlockAction(services, client, body, respond, RECORD_ACTION.clearStorage);
    const target = decodeValue(StorageTargetSchema, action.value);
    if (!target) return replyEphemeral(ix, warning('This button’s card is from an older version of vidops; run `/record storage clear` again.'));
    const allowed = await authorize(ix, 'admin', {
      what: '/record storage clear',
      command: '/record storage clear',
      target: 'upload target',
      projectName: target.p,
    });
    if (!allowed) return;
    const done = await clearUploadTarget(ix, target.p);
    if (done.ok) {
      await replyEphemeral(ix, resolvedCard(`:white_check_mark: Project *${escapeAndTruncate(target.p, 100)}* no longer uploads its recordings.`), {
        replaceOriginal: true,
      });
    }
  });

  startModal.register(app, services);
  storageModal.register(app, services);
}
