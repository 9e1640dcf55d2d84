/**
 * The call card's "Hang up" (force-disconnects the call's connection, behind Slack's confirm
 * dialog) and the `/dial --auth` credentials form. The password is read from the submission,
 * handed to the one dial request and dropped: it is never logged, audited, posted or stored.
 */
import type { App, BlockAction, ButtonAction, SlackActionMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import { authorize } from '../interaction/authorize';
import { dialCall, sipOptionsOf } from '../commands/dial';
import { performChange } from '../interaction/change';
import type { SipSnapshot } from '../poller/snapshot';
import type { Services } from '../services';
import { channelMention, code } from '../slack/mrkdwn';
import { replyEphemeral } from '../slack/respond';
import { textMessage, warning } from '../views/blocks';
import { ACTION, BLOCK, CALLBACK } from '../views/ids';
import { infoModal } from '../views/modals';
import { CallTargetSchema, hangUpNotice, parseDialMetadata } from '../views/sip';
import { decodeValue, targetSession } from '../views/values';
import { fromBlockAction, fromViewAction } from './context';
import { showInModal } from './modal';

type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & { client: App['client'] };
type SubmitArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & { client: App['client'] };

const STALE = 'This button’s card is from an older version of vidops; hang up with `/kick <connection-id>` instead.';
const TITLE = 'Phone call';

type ViewState = ViewSubmitAction['view']['state']['values'];

export type DialCredentials = { ok: true; username: string; password: string } | { ok: false; errors: Record<string, string> };

/** The digest credentials typed into the form, or the fields left empty (never quoting what was typed). */
export function readDialCredentials(values: ViewState): DialCredentials {
  const username = values[BLOCK.sipAuthUsername]?.[ACTION.sipAuthUsername]?.value?.trim() ?? '';
  const password = values[BLOCK.sipAuthPassword]?.[ACTION.sipAuthPassword]?.value ?? '';
  const errors: Record<string, string> = {};
  if (username.length === 0) errors[BLOCK.sipAuthUsername] = 'Enter the username the SIP endpoint expects.';
  if (password.length === 0) errors[BLOCK.sipAuthPassword] = 'Enter the password of that user.';
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, username, password };
}

export function register(app: App, services: Services): void {
  app.action<BlockAction<ButtonAction>>(ACTION.sipHangUp, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    const ix = fromBlockAction(services, client, body, respond, ACTION.sipHangUp);
    const target = decodeValue(CallTargetSchema, action.value);
    if (!target) return replyEphemeral(ix, warning(STALE));
    const s = targetSession(target);
    const allowed = await authorize(ix, 'moderator', {
      what: 'Hang up',
      command: '/dial hang up',
      target: `call connection ${target.c}`,
      projectName: s.projectName,
    });
    if (!allowed) return;
    const done = await performChange(ix, {
      command: '/dial hang up',
      target: `call connection ${target.c} in session ${s.sessionId}`,
      projectName: s.projectName,
      errorContext: { operation: 'hang-up', sessionId: s.sessionId, connectionId: target.c },
      call: (video) => video.moderation.disconnect(s.sessionId, target.c),
      notice: () => hangUpNotice(ix.userId, s, target.c),
      card: () =>
        target.i
          ? { kind: 'sip', resourceId: target.i, action: 'hang-up', state: (previous) => ({ ...(previous as SipSnapshot), status: 'ended' }) }
          : undefined,
    });
    if (done.ok && target.i) {
      await services.store
        .expedite({ kind: 'sip', resourceId: target.i, teamId: ix.teamId }, services.clock())
        .catch((error: unknown) => ix.logger.warn('could not hurry the call watch', { error }));
    }
  });

  app.view<ViewSubmitAction>(CALLBACK.sipAuthModal, async ({ ack, body, view, client }: SubmitArgs) => {
    const metadata = parseDialMetadata(view.private_metadata);
    if (!metadata || !services.projects.has(metadata.p)) {
      await ack({ response_action: 'update', view: infoModal(TITLE, ':warning: This form is from an older version of vidops; run `/dial … --auth` again.') });
      return;
    }
    const credentials = readDialCredentials(view.state.values);
    if (!credentials.ok) {
      await ack({ response_action: 'errors', errors: credentials.errors });
      return;
    }
    const { username, password } = credentials;
    await ack({ response_action: 'update', view: infoModal(TITLE, `:hourglass_flowing_sand: Dialing ${code(metadata.u)}…`) });
    const ix = fromViewAction(services, client, body, CALLBACK.sipAuthModal, metadata.c);
    const show = showInModal(ix, view.id, TITLE);
    const s = targetSession(metadata);
    const allowed = await authorize(ix, 'moderator', { what: '/dial', command: '/dial', target: metadata.u, projectName: s.projectName }, show);
    if (!allowed) return;
    const done = await dialCall(
      ix,
      { session: s, sip: { ...sipOptionsOf(metadata), auth: { username, password } }, ...(metadata.c ? { channelId: metadata.c } : {}) },
      { quiet: true },
    );
    if (!done.ok) {
      await show(done.message);
      return;
    }
    const where = done.announced.delivered === 'channel' && done.announced.channel ? ` The call card is in ${channelMention(done.announced.channel)}.` : '';
    await show(textMessage(`:white_check_mark: Dialed ${code(metadata.u)} with your credentials.${where}`));
  });
}
