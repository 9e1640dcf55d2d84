/** "Stop captions" on a live-captions card (behind Slack's confirm dialog). The role is checked again on the click. */
import type { App, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { authorize } from '../commands/authorize';
import { stopCaptionsAndWatches } from '../commands/captions';
import { performStateChange } from '../commands/perform';
import type { Services } from '../services';
import { replyEphemeral } from '../slack/respond';
import { warning } from '../views/blocks';
import { CaptionsTargetSchema, captionsStoppedNotice } from '../views/captions';
import { ACTION } from '../views/ids';
import { decodeValue, targetSession } from '../views/values';
import { fromBlockAction } from './context';

type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & { client: App['client'] };

const STALE = 'This button’s card is from an older version of vidops; use `/captions stop` instead.';

export function register(app: App, services: Services): void {
  app.action<BlockAction<ButtonAction>>(ACTION.stopCaptions, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    await services.ackGate.idle();
    const ix = fromBlockAction(services, client, body, respond, ACTION.stopCaptions);
    const target = decodeValue(CaptionsTargetSchema, action.value);
    if (!target) return replyEphemeral(ix, warning(STALE));
    const s = targetSession(target);
    const allowed = await authorize(ix, 'moderator', { what: '/captions stop', command: '/captions stop', target: `captions ${target.i}`, projectName: s.projectName });
    if (!allowed) return;
    await performStateChange(ix, {
      command: '/captions stop',
      target: `captions ${target.i} in session ${s.sessionId}`,
      projectName: s.projectName,
      errorContext: { operation: 'captions-stop', sessionId: s.sessionId, resourceId: target.i },
      call: (video) => stopCaptionsAndWatches(ix, video, target.i),
      notice: () => captionsStoppedNotice(ix.userId, target.i, s),
    });
  });
}
