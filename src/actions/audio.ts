/** "Stop" on an Audio Connector card (behind Slack's confirm dialog): disconnects the connector's connection. */
import type { App, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { authorize } from '../interaction/authorize';
import { performChange } from '../interaction/change';
import type { AudioSnapshot } from '../poller/snapshot';
import type { Services } from '../services';
import { replyEphemeral } from '../slack/respond';
import { AudioTargetSchema, audioStoppedNotice } from '../views/audio';
import { warning } from '../views/blocks';
import { ACTION } from '../views/ids';
import { decodeValue, targetSession } from '../views/values';
import { fromBlockAction } from './context';

type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & { client: App['client'] };

const STALE = 'This button’s card is from an older version of vidops; disconnect the connection with `/kick <connection-id>` instead.';

export function register(app: App, services: Services): void {
  app.action<BlockAction<ButtonAction>>(ACTION.stopAudio, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    const ix = fromBlockAction(services, client, body, respond, ACTION.stopAudio);
    const target = decodeValue(AudioTargetSchema, action.value);
    if (!target) return replyEphemeral(ix, warning(STALE));
    const s = targetSession(target);
    const allowed = await authorize(ix, 'moderator', {
      what: 'Stop the audio connection',
      command: '/audio-connect stop',
      target: `audio connection ${target.i}`,
      projectName: s.projectName,
    });
    if (!allowed) return;
    await performChange(ix, {
      command: '/audio-connect stop',
      target: `audio connection ${target.i} (connection ${target.c}) in session ${s.sessionId}`,
      projectName: s.projectName,
      errorContext: { operation: 'audio-stop', sessionId: s.sessionId, connectionId: target.c, resourceId: target.i },
      call: (video) => video.moderation.disconnect(s.sessionId, target.c),
      notice: () => audioStoppedNotice(ix.userId, s, target.c),
      card: () => ({ kind: 'audio', resourceId: target.i, action: 'stop', state: (previous) => ({ ...(previous as AudioSnapshot), status: 'ended' }) }),
    });
  });
}
