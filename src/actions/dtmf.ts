/**
 * The keypad of a call card: each key plays its DTMF tone to the call's connection. A key press
 * is audited (without the key: tones are often PINs) and confirmed to the presser only; a notice
 * per key would flood the channel.
 */
import type { App, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { recordAudit } from '../interaction/audit';
import { authorize } from '../interaction/authorize';
import type { Services } from '../services';
import { code } from '../slack/mrkdwn';
import { replyEphemeral } from '../slack/respond';
import { textMessage, warning } from '../views/blocks';
import { auditErrorCode, errorMessage } from '../views/errors';
import { ACTION } from '../views/ids';
import { CallTargetSchema, keyOfAction } from '../views/sip';
import { decodeValue, targetSession } from '../views/values';
import { fromBlockAction } from './context';

type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & { client: App['client'] };

const STALE = 'This keypad is from an older version of vidops; send tones with `/dtmf <digits> --to <connection-id>` instead.';

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
export const KEYPAD_ACTIONS = new RegExp(`^${escapeRegExp(ACTION.sipKeyPrefix)}`);

export function register(app: App, services: Services): void {
  app.action<BlockAction<ButtonAction>>(KEYPAD_ACTIONS, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    const ix = fromBlockAction(services, client, body, respond, ACTION.sipKeyPrefix);
    const key = keyOfAction(action.action_id);
    const target = decodeValue(CallTargetSchema, action.value);
    if (!key || !target) return replyEphemeral(ix, warning(STALE));
    const s = targetSession(target);
    const audited = { command: '/dtmf', target: `keypad tone to connection ${target.c} in session ${s.sessionId}`, projectName: s.projectName };
    const allowed = await authorize(ix, 'moderator', {
      what: 'The call keypad',
      command: '/dtmf',
      target: `connection ${target.c}`,
      projectName: s.projectName,
    });
    if (!allowed) return;
    try {
      await services.projects.client(s.projectName).sip.playDtmf(s.sessionId, key, { connectionId: target.c });
    } catch (error) {
      ix.logger.warn('video service call failed', { command: '/dtmf', project: s.projectName, error });
      await recordAudit(ix, { ...audited, outcome: 'error', error: auditErrorCode(error) });
      await replyEphemeral(ix, errorMessage(error, { operation: 'dtmf', project: s.projectName, sessionId: s.sessionId, connectionId: target.c }));
      return;
    }
    await recordAudit(ix, { ...audited, outcome: 'ok' });
    await replyEphemeral(ix, textMessage(`:1234: Sent ${code(key)} to the call.`));
  });
}
