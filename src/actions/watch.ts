/** "Stop watching" on a session watch's card (behind Slack's confirm dialog); the role is checked again on the click. */
import type { App, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { stopWatching } from '../commands/watch';
import { ALL_SESSIONS } from '../poller/snapshot';
import { authorize } from '../interaction/authorize';
import type { Services } from '../services';
import { replyEphemeral } from '../slack/respond';
import { warning } from '../views/blocks';
import { ACTION } from '../views/ids';
import { SessionTargetSchema, decodeValue, targetSession } from '../views/values';
import { fromBlockAction } from './context';

type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & { client: App['client'] };

export function register(app: App, services: Services): void {
  app.action<BlockAction<ButtonAction>>(ACTION.stopWatching, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    const ix = fromBlockAction(services, client, body, respond, ACTION.stopWatching);
    const target = decodeValue(SessionTargetSchema, action.value);
    if (!target) return replyEphemeral(ix, warning('This button’s card is from an older version of vidops; use `/video unwatch` instead.'));
    const scope = targetSession(target);
    const allowed = await authorize(ix, 'moderator', {
      what: '/video unwatch',
      command: '/video unwatch',
      target: `session ${target.s}`,
      projectName: scope.projectName,
    });
    if (!allowed) return;
    await stopWatching(ix, scope, target.s === ALL_SESSIONS ? 'all sessions' : (target.a ?? target.s));
  });
}
