/**
 * The card that answers a typed irreversible command (ephemeral): it is the one question
 * (src/views/confirmation-policy.ts), so its red button acts.
 */
import { code, escapeMrkdwn } from '../slack/mrkdwn';
import { type SlackMessage, actions, button, context, section } from './blocks';
import { dialogFor } from './confirmation-policy';
import { ACTION } from './ids';
import type { SessionRef } from './notices';
import { encodeValue, sessionTarget } from './values';

function sessionText(s: SessionRef): string {
  return s.alias ? code(s.alias) : code(s.sessionId);
}

const cancelButton = () => button({ actionId: ACTION.cancel, text: 'Cancel' });

export function kickConfirmCard(s: SessionRef, connectionId: string): SlackMessage {
  return {
    text: `Disconnect ${escapeMrkdwn(connectionId)}?`,
    blocks: [
      section(`:warning: *Disconnect ${code(connectionId)}* from session ${sessionText(s)}? They can rejoin if their app reconnects.`),
      actions([
        button({
          actionId: ACTION.confirmKick,
          text: 'Disconnect',
          style: 'danger',
          value: encodeValue({ ...sessionTarget(s), c: connectionId }),
          ...dialogFor('kick', 'typed', {
            title: 'Disconnect this participant?',
            text: `Connection ${code(connectionId)} will be dropped from session ${sessionText(s)}.`,
            confirm: 'Disconnect',
            deny: 'Cancel',
            danger: true,
          }),
        }),
        cancelButton(),
      ]),
      context(s.alias ? `Only you can see this. Session ID ${code(s.sessionId)}` : 'Only you can see this.'),
    ],
  };
}

/** What a confirmation card becomes once acted upon (replaces it). */
export function resolvedCard(text: string): SlackMessage {
  return { text, blocks: [section(text)] };
}
