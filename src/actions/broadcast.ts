/**
 * The broadcast buttons and form: "Stop broadcast" (on the card, in `/broadcast list` and on the
 * `/broadcast stop` card, behind Slack's confirm dialog), "Add an RTMP output" in the start form,
 * and the form's submission. Roles are checked again on every click and submission.
 */
import type { App, BlockAction, ButtonAction, SlackActionMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import { type Broadcast, VideoApiError, VideoConflictError, VideoNotFoundError } from '../api';
import { parseErrorBody } from '../api/errors';
import { authorize } from '../interaction/authorize';
import { type StartOutcome, startBroadcast } from '../commands/broadcast/start';
import { performChange } from '../interaction/change';
import { broadcastSnapshot } from '../poller/snapshot';
import { hasRole } from '../rbac/roles';
import type { Services } from '../services';
import { channelMention, code } from '../slack/mrkdwn';
import { replyEphemeral, slackErrorCode } from '../slack/respond';
import { warning } from '../views/blocks';
import { BroadcastTargetSchema, broadcastKind } from '../kinds/broadcast';
import { broadcastStoppedNotice } from '../views/broadcast';
import { broadcastErrorMessage } from '../views/broadcast-errors';
import { MAX_RTMP_ROWS, broadcastStartModal, parseStartMetadata } from '../views/broadcast-modal';
import { resolvedCard } from '../views/confirm';
import { ACTION, BROADCAST_BLOCK, CALLBACK } from '../views/ids';
import { infoModal } from '../views/modals';
import { decodeValue } from '../views/values';
import { type StartForm, readStartForm } from './broadcast-form';
import { fromBlockAction, fromViewAction } from './context';
import { mainText, showInModal } from './modal';

type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & { client: App['client'] };
type SubmitArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & { client: App['client'] };

const TITLE = 'Start a broadcast';
const STALE = 'This button’s card is from an older version of vidops; run `/broadcast list` and stop it from there.';

/**
 * How long a submission waits for the start before acknowledging: answering within Slack's 3 s
 * with field errors (tag, session) when the service refuses quickly, else a progress view.
 */
export const SUBMIT_WAIT_MS = 1500;

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, ms));
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A refusal of the service that belongs to one field of the form, as that field's error. */
export function fieldErrorFor(error: unknown, form: StartForm): Record<string, string> | undefined {
  if (!(error instanceof VideoApiError)) return undefined;
  const said = error.raw ? (parseErrorBody(error.raw).message ?? '') : '';
  if (error instanceof VideoNotFoundError) return { [BROADCAST_BLOCK.session]: 'This session was not found in its project; pick another.' };
  if (error instanceof VideoConflictError) {
    if (/routed|relayed|p2p|media ?mode|media router/i.test(said)) {
      return { [BROADCAST_BLOCK.session]: 'This session is relayed; broadcasting needs a routed session.' };
    }
    return {
      [BROADCAST_BLOCK.tag]: form.settings.multiBroadcastTag
        ? 'A broadcast with this tag is already running in this session; choose another tag.'
        : 'This session is already broadcasting. To run a second broadcast at the same time, give this one a tag.',
    };
  }
  if (error.status === 400 && /client/i.test(said) && /connect/i.test(said)) {
    return { [BROADCAST_BLOCK.session]: 'Nobody is connected to this session; a broadcast needs at least one connected client.' };
  }
  if (error.status === 400 && /layout class/i.test(said)) {
    return { [BROADCAST_BLOCK.layout]: 'This layout needs layout classes on the streams (/streams → Edit layout classes), or choose Best fit.' };
  }
  return undefined;
}

function startedText(outcome: Extract<StartOutcome, { ok: true }>): string {
  const where = outcome.announced.delivered === 'channel' && outcome.announced.channel ? ` The card is in ${channelMention(outcome.announced.channel)}.` : '';
  return `:white_check_mark: Broadcast ${code(outcome.broadcast.id)} started.${where}`;
}

export function register(app: App, services: Services): void {
  app.action<BlockAction<ButtonAction>>(ACTION.broadcastStop, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    const ix = fromBlockAction(services, client, body, respond, ACTION.broadcastStop);
    const target = decodeValue(BroadcastTargetSchema, action.value);
    if (!target) return replyEphemeral(ix, warning(STALE));
    const ref = { projectName: target.p, ...(target.a ? { alias: target.a } : {}) };
    const allowed = await authorize(ix, 'moderator', {
      what: 'Stop broadcast',
      command: '/broadcast stop',
      target: `broadcast ${target.b}`,
      projectName: target.p,
    });
    if (!allowed) return;
    const done = await performChange(ix, {
      command: '/broadcast stop',
      target: `broadcast ${target.b} in session ${target.s}`,
      projectName: target.p,
      call: (video) => video.broadcasts.stop(target.b),
      check: { k: 'broadcast', b: target.b },
      notice: (stopped) => broadcastStoppedNotice(ix.userId, stopped, ref),
      failure: async (error) => broadcastErrorMessage(error, { operation: 'stop', project: target.p, broadcastId: target.b, sessionId: target.s, ...ref }),
      card: (stopped) => ({ kind: 'broadcast', resourceId: target.b, action: 'stop', state: broadcastSnapshot(stopped, services.clock()) }),
    });
    if (!done.ok) return;
    const container = body.container as { type?: string; is_ephemeral?: boolean; message_ts?: string; channel_id?: string } | undefined;
    if (container?.type === 'message' && container.is_ephemeral === false && container.message_ts && container.channel_id) {
      // Clicked on the in-channel card: the change path redrew it from its model when the poller follows it.
      if (done.redrawn.includes(container.message_ts)) return;
      const card = broadcastKind.render({
        resourceId: target.b,
        sessionId: target.s,
        projectName: target.p,
        state: broadcastSnapshot(done.result, services.clock()),
        context: { ...(target.a ? { alias: target.a } : {}), ...(target.u ? { startedBy: target.u } : {}) },
        actions: [{ action: 'stop', by: ix.userId, at: services.clock() }],
        now: services.clock(),
      });
      try {
        await client.chat.update({ channel: container.channel_id, ts: container.message_ts, text: card.text, blocks: card.blocks });
      } catch (error) {
        ix.logger.warn('could not update the broadcast card', { error: slackErrorCode(error) ?? error });
      }
    } else {
      await replyEphemeral(ix, resolvedCard(`:white_check_mark: Broadcast ${code(target.b)} stopped.`), { replaceOriginal: true });
    }
  });

  app.action<BlockAction<ButtonAction>>(ACTION.broadcastAddOutput, async ({ ack, body, client }: ButtonArgs) => {
    await ack();
    const view = body.view;
    const metadata = parseStartMetadata(view?.private_metadata);
    if (!view || !metadata) return;
    const rows = Math.min(metadata.r + 1, MAX_RTMP_ROWS);
    try {
      // Same block and action ids: Slack keeps everything typed so far, stream keys included.
      await client.views.update({ view_id: view.id, hash: view.hash, view: broadcastStartModal({ metadata: { ...metadata, r: rows } }) });
    } catch (error) {
      services.logger.warn('could not add an RTMP row to the broadcast form', { error: slackErrorCode(error) ?? error });
    }
  });

  app.view<ViewSubmitAction>(CALLBACK.broadcastStartModal, async ({ ack, body, view, client }: SubmitArgs) => {
    const began = Date.now();
    const metadata = parseStartMetadata(view.private_metadata);
    if (!metadata) {
      await ack({ response_action: 'update', view: infoModal(TITLE, ':warning: This form is from an older version of vidops; run `/broadcast start` again.') });
      return;
    }
    const read = readStartForm(view.state.values as never, metadata.r, (name) => services.projects.has(name));
    if (!read.ok) {
      await ack({ response_action: 'errors', errors: read.errors });
      return;
    }
    const { session, settings } = read.form;
    const ix = fromViewAction(services, client, body, CALLBACK.broadcastStartModal, metadata.c);
    const inModal = showInModal(ix, view.id, TITLE);
    const show = (message: Parameters<typeof inModal>[0]) =>
      inModal(message).catch((error: unknown) => ix.logger.warn('could not update the broadcast form', { error: slackErrorCode(error) ?? error }));
    const attempt = { what: TITLE, command: '/broadcast start', target: `session ${session.sessionId}`, projectName: session.projectName };
    const { role } = await services.authorizer.roleOf(client, ix.userId, {
      teamId: ix.teamId,
      projectName: session.projectName,
      ...(ix.channelId ? { channelId: ix.channelId } : {}),
    });
    if (!hasRole(role, 'moderator')) {
      await ack({ response_action: 'update', view: infoModal(TITLE, ':hourglass_flowing_sand: Checking…') });
      await authorize(ix, 'moderator', attempt, show);
      return;
    }
    await services.store
      .touchRecentSession({ teamId: ix.teamId, projectName: session.projectName, sessionId: session.sessionId, usedBy: ix.userId, usedAt: services.clock() })
      .catch((error: unknown) => ix.logger.warn('could not record a recent session', { error }));

    const running: Promise<Broadcast> = services.projects.client(session.projectName).broadcasts.start({ ...settings, sessionId: session.sessionId });
    const early = await within(settle(running), SUBMIT_WAIT_MS - (Date.now() - began));
    const fieldErrors = early && !early.ok ? fieldErrorFor(early.error, read.form) : undefined;
    if (fieldErrors) {
      await ack({ response_action: 'errors', errors: fieldErrors });
      await startBroadcast(ix, session, settings, running); // audits the refusal
      return;
    }
    await ack({ response_action: 'update', view: infoModal(TITLE, ':hourglass_flowing_sand: Starting the broadcast…') });
    const outcome = await startBroadcast(ix, session, settings, running);
    try {
      await client.views.update({ view_id: view.id, view: infoModal(TITLE, outcome.ok ? startedText(outcome) : mainText(outcome.message)) });
    } catch (error) {
      ix.logger.warn('could not show the result in the broadcast form', { error: slackErrorCode(error) ?? error });
      if (!outcome.ok) await replyEphemeral(ix, outcome.message);
    }
  });
}
