/**
 * The buttons of the session console and of people by name: Kick on a console row (Slack's
 * confirm dialog is its one confirmation), Mute everyone (acts at once; its notice has Undo),
 * Post in channel, a picker's choice, and the Disconnect of a `/kick` card (the card was the
 * confirmation). Every click checks the role again: a card can outlive a role.
 */
import type { App, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { connectionOf, disconnectPerson, kickCardFor, muteOne, refreshPrivateConsole } from '../commands/people';
import { postConsole } from '../commands/post-console';
import { participantLabel } from '../kinds/session-console';
import { authorize } from '../interaction/authorize';
import { muteEveryone } from '../commands/mute-all';
import { MUTE_VIA } from '../interaction/mute-state';
import type { Services } from '../services';
import { escapeAndTruncate } from '../slack/mrkdwn';
import { replyEphemeral } from '../slack/respond';
import { textMessage, warning } from '../views/blocks';
import { ACTION } from '../views/ids';
import { KickPersonTargetSchema, PickTargetSchema, personLabel } from '../views/people';
import { MuteAllTargetSchema, SessionTargetSchema, StreamTargetSchema, decodeValue, targetSession } from '../views/values';
import { fromBlockAction } from './context';

type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & { client: App['client'] };

const STALE = 'This button’s card is from an older version of vidops; run `/streams` again.';

export function register(app: App, services: Services): void {
  app.action<BlockAction<ButtonAction>>(ACTION.consoleKick, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    const ix = fromBlockAction(services, client, body, respond, ACTION.consoleKick);
    const target = decodeValue(StreamTargetSchema, action.value);
    if (!target) return replyEphemeral(ix, warning(STALE));
    const s = targetSession(target);
    const allowed = await authorize(ix, 'moderator', { what: '/kick', command: '/kick', target: `stream ${target.t}`, projectName: s.projectName });
    if (!allowed) return;
    const found = await connectionOf(ix, s, [{ id: target.t, ...(target.n && { name: target.n }) }]);
    if (!found.ok) return replyEphemeral(ix, found.message);
    await disconnectPerson(ix, s, found.connectionId, personLabel(found.streams));
  });

  app.action<BlockAction<ButtonAction>>(ACTION.kickPerson, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    const ix = fromBlockAction(services, client, body, respond, ACTION.kickPerson);
    const target = decodeValue(KickPersonTargetSchema, action.value);
    if (!target) return replyEphemeral(ix, warning(STALE));
    const s = targetSession(target);
    const allowed = await authorize(ix, 'moderator', { what: '/kick', command: '/kick', target: `connection ${target.c}`, projectName: s.projectName });
    if (!allowed) return;
    const done = await disconnectPerson(ix, s, target.c, target.n);
    if (done)
      await replyEphemeral(ix, textMessage(`:white_check_mark: ${target.n ? `*${escapeAndTruncate(target.n, 120)}*` : 'The connection'} was disconnected.`), {
        replaceOriginal: true,
      });
  });

  app.action<BlockAction<ButtonAction>>(ACTION.consoleMuteAll, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    const ix = fromBlockAction(services, client, body, respond, ACTION.consoleMuteAll);
    const target = decodeValue(MuteAllTargetSchema, action.value);
    if (!target) return replyEphemeral(ix, warning(STALE));
    const s = targetSession(target);
    const allowed = await authorize(ix, 'moderator', {
      what: 'Mute everyone',
      command: '/mute-all',
      target: `session ${s.sessionId}`,
      projectName: s.projectName,
    });
    if (!allowed) return;
    const done = await muteEveryone(ix, s, [], { via: MUTE_VIA.everyone });
    if (done.ok && body.container?.is_ephemeral === true) await refreshPrivateConsole(ix, s);
  });

  app.action<BlockAction<ButtonAction>>(ACTION.consolePost, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    const ix = fromBlockAction(services, client, body, respond, ACTION.consolePost);
    const target = decodeValue(SessionTargetSchema, action.value);
    if (!target) return replyEphemeral(ix, warning(STALE));
    const s = targetSession(target);
    const allowed = await authorize(ix, 'viewer', {
      what: '/streams --post',
      command: '/streams',
      target: `session ${s.sessionId}`,
      projectName: s.projectName,
    });
    if (!allowed) return;
    await postConsole(ix, s);
  });

  app.action<BlockAction<ButtonAction>>(ACTION.pickParticipant, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    const ix = fromBlockAction(services, client, body, respond, ACTION.pickParticipant);
    const target = decodeValue(PickTargetSchema, action.value);
    if (!target) return replyEphemeral(ix, warning(STALE));
    const s = targetSession(target);
    const command = target.o === 'mute' ? '/mute' : '/kick';
    const allowed = await authorize(ix, 'moderator', { what: command, command, target: `stream ${target.t}`, projectName: s.projectName });
    if (!allowed) return;
    const stream = { id: target.t, ...(target.n && { name: target.n }) };
    if (target.o === 'kick') return replyEphemeral(ix, await kickCardFor(ix, s, [stream]), { replaceOriginal: true });
    const muted = await muteOne(ix, s, target.t, MUTE_VIA.command, target.n);
    if (muted)
      await replyEphemeral(ix, textMessage(`:white_check_mark: Muted *${escapeAndTruncate(participantLabel(stream), 120)}*.`), { replaceOriginal: true });
  });
}
