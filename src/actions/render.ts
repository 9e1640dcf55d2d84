/**
 * Stopping a composer: "Stop" on its card, in `/render list` or `/render show` (behind Slack's
 * confirm dialog), and the red button of the `/render stop` confirmation card, which is replaced
 * by the outcome. The role is checked again on the click; the poller is asked to look at once.
 */
import type { App, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { Interaction } from '../interaction/interaction';
import { authorize } from '../interaction/authorize';
import { performChange } from '../interaction/change';
import { withAlias } from '../interaction/session-ref';
import type { RenderSnapshot } from '../poller/snapshot';
import type { Services } from '../services';
import { code } from '../slack/mrkdwn';
import { replyEphemeral } from '../slack/respond';
import { warning } from '../views/blocks';
import { resolvedCard } from '../views/confirm';
import { ACTION } from '../views/ids';
import { RenderTargetSchema, renderStoppedNotice } from '../views/render';
import { decodeValue, targetSession } from '../views/values';
import { fromBlockAction } from './context';

type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & { client: App['client'] };

const STALE = 'This button’s card is from an older version of vidops; use `/render stop <id>` instead.';

async function stopRender(ix: Interaction, services: Services, rawValue: string | undefined): Promise<boolean> {
  const target = decodeValue(RenderTargetSchema, rawValue);
  if (!target) {
    await replyEphemeral(ix, warning(STALE));
    return false;
  }
  const s = await withAlias(services, ix.teamId, targetSession(target));
  const allowed = await authorize(ix, 'moderator', {
    what: '/render stop',
    command: '/render stop',
    target: `composer ${target.i}`,
    projectName: s.projectName,
  });
  if (!allowed) return false;
  const done = await performChange(ix, {
    command: '/render stop',
    target: `composer ${target.i} in session ${s.sessionId}`,
    projectName: s.projectName,
    errorContext: { operation: 'render-stop', sessionId: s.sessionId, resourceId: target.i },
    call: (video) => video.render.stop(target.i),
    notice: () => renderStoppedNotice(ix.userId, s, target.i),
    card: () => ({
      kind: 'render',
      resourceId: target.i,
      action: 'stop',
      state: (previous) => ({ ...(previous as RenderSnapshot), status: 'stopped', reason: 'Stop Requested' }),
    }),
  });
  if (!done.ok) return false;
  await services.store
    .expedite({ kind: 'render', resourceId: target.i, teamId: ix.teamId }, services.clock())
    .catch((error: unknown) => ix.logger.warn('could not hurry the composer watch', { error }));
  return true;
}

export function register(app: App, services: Services): void {
  app.action<BlockAction<ButtonAction>>(ACTION.stopRender, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    await stopRender(fromBlockAction(services, client, body, respond, ACTION.stopRender), services, action.value);
  });

  app.action<BlockAction<ButtonAction>>(ACTION.confirmRenderStop, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    const ix = fromBlockAction(services, client, body, respond, ACTION.confirmRenderStop);
    if (await stopRender(ix, services, action.value)) {
      const id = decodeValue(RenderTargetSchema, action.value)?.i ?? '';
      await replyEphemeral(ix, resolvedCard(`:white_check_mark: Composer ${code(id)} was stopped.`), { replaceOriginal: true });
    }
  });
}
