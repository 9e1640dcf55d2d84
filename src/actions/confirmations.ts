/**
 * "Cancel" on every confirmation card, and the buttons of cards that older versions posted and
 * that may still be on someone's screen: "Disconnect" of a `/kick` card naming a connection (the
 * `/kick` card of now is in src/views/people.ts, its button in ./console.ts) and "Mute everyone"
 * of a `/mute-all` card (mute-all acts at once now). The role is checked again on the click.
 */
import type { App, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { authorize } from '../interaction/authorize';
import { performChange } from '../interaction/change';
import { withAlias } from '../interaction/session-ref';
import type { Services } from '../services';
import { replyEphemeral } from '../slack/respond';
import { warning } from '../views/blocks';
import { resolvedCard } from '../views/confirm';
import { ACTION } from '../views/ids';
import { kickNotice } from '../views/notices';
import { KickTargetSchema, MuteAllTargetSchema, decodeValue, targetSession } from '../views/values';
import { code } from '../slack/mrkdwn';
import { muteEveryone } from '../commands/mute-all';
import { fromBlockAction } from './context';

type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & { client: App['client'] };

const STALE = 'This button’s card is from an older version of vidops; run the command again.';

export function register(app: App, services: Services): void {
  app.action<BlockAction<ButtonAction>>(ACTION.confirmMuteAll, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    const ix = fromBlockAction(services, client, body, respond, ACTION.confirmMuteAll);
    const target = decodeValue(MuteAllTargetSchema, action.value);
    if (!target) return replyEphemeral(ix, warning(STALE));
    const s = await withAlias(services, ix.teamId, targetSession(target));
    const allowed = await authorize(ix, 'moderator', { what: '/mute-all', command: '/mute-all', target: `session ${s.sessionId}`, projectName: s.projectName });
    if (!allowed) return;
    const done = await muteEveryone(ix, s, target.x);
    if (done.ok) {
      await replyEphemeral(ix, resolvedCard(`:white_check_mark: Everyone in ${code(s.alias ?? s.sessionId)} is muted.`), { replaceOriginal: true });
    }
  });

  app.action<BlockAction<ButtonAction>>(ACTION.confirmKick, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    const ix = fromBlockAction(services, client, body, respond, ACTION.confirmKick);
    const target = decodeValue(KickTargetSchema, action.value);
    if (!target) return replyEphemeral(ix, warning(STALE));
    const s = await withAlias(services, ix.teamId, targetSession(target));
    const allowed = await authorize(ix, 'moderator', { what: '/kick', command: '/kick', target: `connection ${target.c}`, projectName: s.projectName });
    if (!allowed) return;
    const done = await performChange(ix, {
      command: '/kick',
      target: `connection ${target.c} in session ${s.sessionId}`,
      projectName: s.projectName,
      errorContext: { operation: 'disconnect', sessionId: s.sessionId, connectionId: target.c },
      call: (video) => video.moderation.disconnect(s.sessionId, target.c),
      notice: () => kickNotice(ix.userId, s, target.c),
    });
    if (done.ok) {
      await replyEphemeral(ix, resolvedCard(`:white_check_mark: ${code(target.c)} was disconnected.`), { replaceOriginal: true });
    }
  });

  app.action<BlockAction<ButtonAction>>(ACTION.cancel, async ({ ack, respond }: ButtonArgs) => {
    await ack();
    await respond({ delete_original: true });
  });
}
