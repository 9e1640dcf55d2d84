/**
 * "Undo" on the notices of reversible changes (src/views/confirmation-policy.ts): on a
 * mute-everyone it lifts the session's mute state (as `/unmute-all` does); on a layout-classes
 * change it puts each stream's classes back. The notice is then redrawn — "Undone by @x", what
 * that did, no Undo. Moderators only, checked on the click: the button's value names what to put
 * back, never who may.
 */
import type { App, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { unmuteEveryone } from '../commands/unmute-all';
import { authorize } from '../interaction/authorize';
import { performChange } from '../interaction/change';
import { MUTE_VIA } from '../interaction/mute-state';
import type { Interaction } from '../interaction/interaction';
import { withAlias } from '../interaction/session-ref';
import type { Services } from '../services';
import { replyEphemeral } from '../slack/respond';
import { scrubDeep } from '../scrub';
import { type SlackMessage, warning } from '../views/blocks';
import { ACTION } from '../views/ids';
import { layoutClassesNotice, layoutClassesUndoneNotice, muteAllUndoneNotice } from '../views/notices';
import { UndoLayoutClassesSchema, UndoMuteAllSchema, decodeValue, targetSession } from '../views/values';
import { fromBlockAction } from './context';

type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & { client: App['client'] };

const STALE = 'This Undo is from an older version of vidops; run `/unmute-all` instead.';
const STALE_LAYOUT = 'This Undo is from an older version of vidops; set the classes with `/streams` → *Edit layout classes*.';

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
    await redrawAfterUndo(ix, body, muteAllUndoneNotice(target.m, ix.userId, s, target.x));
  });

  app.action<BlockAction<ButtonAction>>(ACTION.undoLayoutClasses, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    const ix = fromBlockAction(services, client, body, respond, ACTION.undoLayoutClasses);
    const target = decodeValue(UndoLayoutClassesSchema, action.value);
    if (!target) return replyEphemeral(ix, warning(STALE_LAYOUT));
    const s = await withAlias(services, ix.teamId, targetSession(target));
    const restored = target.l.map((p) => ({ id: p.id, layoutClassList: p.c }));
    const allowed = await authorize(ix, 'moderator', {
      what: 'Undo (layout classes)',
      command: 'layout classes',
      target: `session ${s.sessionId}`,
      projectName: s.projectName,
    });
    if (!allowed) return;
    const done = await performChange(ix, {
      command: 'layout classes',
      target: `${restored.map((c) => c.id).join(',')} in session ${s.sessionId} (undo)`.slice(0, 500),
      projectName: s.projectName,
      errorContext: { operation: 'set-layout-classes', sessionId: s.sessionId },
      call: (video) => video.streams.setLayoutClasses(s.sessionId, restored),
      notice: () => layoutClassesNotice(ix.userId, s, restored),
    });
    if (!done.ok) return;
    await redrawAfterUndo(ix, body, layoutClassesUndoneNotice(target.m, ix.userId, s, restored));
  });
}

/** The change is undone and the channel told; a notice that cannot be redrawn only keeps its Undo. */
async function redrawAfterUndo(ix: Interaction, body: BlockAction, message: SlackMessage): Promise<void> {
  try {
    await redrawNotice(ix, body, message);
  } catch (error) {
    ix.logger.warn('could not redraw the notice after Undo', { error });
  }
}
