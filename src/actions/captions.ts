/**
 * "Stop captions" on a live-captions card (behind Slack's confirm dialog) and on the card
 * answering `/captions stop` (that card was the question). The role is checked again on the click.
 */
import type { App, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { authorize } from '../interaction/authorize';
import { stopCaptionsChange } from '../commands/captions';
import { performChange } from '../interaction/change';
import { withAlias } from '../interaction/session-ref';
import type { Services } from '../services';
import { replyEphemeral } from '../slack/respond';
import { warning } from '../views/blocks';
import { CaptionsStopSchema, CaptionsTargetSchema } from '../views/captions';
import { resolvedCard } from '../views/confirm';
import { code } from '../slack/mrkdwn';
import { ACTION } from '../views/ids';
import { decodeValue, targetSession } from '../views/values';
import { fromBlockAction } from './context';

type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & { client: App['client'] };

const STALE = 'This button’s card is from an older version of vidops; use `/captions stop` instead.';

export function register(app: App, services: Services): void {
  app.action<BlockAction<ButtonAction>>(ACTION.stopCaptions, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    const ix = fromBlockAction(services, client, body, respond, ACTION.stopCaptions);
    const target = decodeValue(CaptionsTargetSchema, action.value);
    if (!target) return replyEphemeral(ix, warning(STALE));
    const s = targetSession(target);
    const allowed = await authorize(ix, 'moderator', {
      what: '/captions stop',
      command: '/captions stop',
      target: `captions ${target.i}`,
      projectName: s.projectName,
    });
    if (!allowed) return;
    await performChange(ix, stopCaptionsChange(ix, target.i, s.projectName, s));
  });

  app.action<BlockAction<ButtonAction>>(ACTION.confirmCaptionsStop, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    const ix = fromBlockAction(services, client, body, respond, ACTION.confirmCaptionsStop);
    const target = decodeValue(CaptionsStopSchema, action.value);
    if (!target) return replyEphemeral(ix, warning(STALE));
    const s = target.s ? await withAlias(services, ix.teamId, targetSession({ ...target, s: target.s })) : undefined;
    const allowed = await authorize(ix, 'moderator', {
      what: '/captions stop',
      command: '/captions stop',
      target: `captions ${target.i}`,
      projectName: target.p,
    });
    if (!allowed) return;
    const done = await performChange(ix, stopCaptionsChange(ix, target.i, target.p, s));
    if (done.ok) await replyEphemeral(ix, resolvedCard(`:white_check_mark: Captions ${code(target.i)} were stopped.`), { replaceOriginal: true });
  });
}
