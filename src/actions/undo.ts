/**
 * "Undo" on a mute-everyone notice: lifts the session's mute state (as `/unmute-all` does) and
 * redraws the notice — "Undone by @x", what that does and does not do, no Undo. Moderators only,
 * checked on the click: the button's value names the session, never who may act on it.
 */
import type { App, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { unmuteEveryone } from '../commands/unmute-all';
import { authorize } from '../interaction/authorize';
import { MUTE_VIA } from '../interaction/mute-state';
import type { Interaction } from '../interaction/interaction';
import { withAlias } from '../interaction/session-ref';
import type { Services } from '../services';
import { replyEphemeral } from '../slack/respond';
import { scrubDeep } from '../scrub';
import { type SlackMessage, warning } from '../views/blocks';
import { ACTION } from '../views/ids';
import { muteAllUndoneNotice } from '../views/notices';
import { UndoMuteAllSchema, decodeValue, targetSession } from '../views/values';
import { fromBlockAction } from './context';

type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & { client: App['client'] };

const STALE = 'This Undo is from an older version of vidops; run `/unmute-all` instead.';

/** The notice clicked: edited in the channel, or through the response URL when only the asker saw it. */
async function redrawNotice(ix: Interaction, body: BlockAction, message: SlackMessage): Promise<void> {
  const ts = body.container?.message_ts as string | undefined;
  const channel = ix.channelId;
  if (body.container?.is_ephemeral !== true && ts && channel) {
    const clean = scrubDeep(message);
    await ix.client.chat.update({ channel, ts, text: clean.text, blocks: clean.blocks });
    return;
  }
  await replyEphemeral(ix, message, { replaceOriginal: true });
}

export function register(app: App, services: Services): void {
  app.action<BlockAction<ButtonAction>>(ACTION.undoMuteAll, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    const ix = fromBlockAction(services, client, body, respond, ACTION.undoMuteAll);
    const target = decodeValue(UndoMuteAllSchema, action.value);
    if (!target) return replyEphemeral(ix, warning(STALE));
    const s = await withAlias(services, ix.teamId, targetSession(target));
    const allowed = await authorize(ix, 'moderator', {
      what: 'Undo (mute everyone)',
      command: '/unmute-all',
      target: `session ${s.sessionId}`,
      projectName: s.projectName,
    });
    if (!allowed) return;
    const done = await unmuteEveryone(ix, s, MUTE_VIA.undo);
    if (!done.ok) return;
    try {
      await redrawNotice(ix, body, muteAllUndoneNotice(target.m, ix.userId, s, target.x));
    } catch (error) {
      // The mute state is lifted and the channel was told; only the old notice still shows Undo.
      ix.logger.warn('could not redraw the mute-everyone notice after Undo', { error });
    }
  });
}
