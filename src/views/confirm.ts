/**
 * Confirmation cards for destructive actions. The slash command answers with one of these
 * (ephemeral); its red button opens Slack's confirm dialog — two taps in all on a phone.
 */
import { code, escapeMrkdwn } from '../slack/mrkdwn';
import { type SlackMessage, actions, button, context, section } from './blocks';
import { ACTION } from './ids';
import type { SessionRef } from './notices';
import { encodeValue, sessionTarget } from './values';

function sessionText(s: SessionRef): string {
  return s.alias ? code(s.alias) : code(s.sessionId);
}

const cancelButton = () => button({ actionId: ACTION.cancel, text: 'Cancel' });

export function muteAllConfirmCard(s: SessionRef, excluded: readonly string[], publishing?: number): SlackMessage {
  const who =
    publishing === undefined
      ? 'Everyone publishing'
      : publishing === 0
        ? 'Nobody is publishing yet, but everyone who starts'
        : `${publishing === 1 ? '1 stream' : `${publishing} streams`} publishing (and everyone who starts later)`;
  const except =
    excluded.length > 0 ? ` except ${excluded.slice(0, 10).map(code).join(', ')}${excluded.length > 10 ? ` and ${excluded.length - 10} more` : ''}` : '';
  const text = `${who} in session ${sessionText(s)} will be muted${except}, until someone runs \`/unmute-all\`.`;
  const value = encodeValue({ ...sessionTarget(s), x: excluded });
  return {
    text: `Mute everyone in ${escapeMrkdwn(s.alias ?? s.sessionId)}?`,
    blocks: [
      section(`:warning: *Mute everyone?* ${text}`),
      actions([
        button({
          actionId: ACTION.confirmMuteAll,
          text: 'Mute everyone',
          style: 'danger',
          value,
          confirm: {
            title: 'Mute everyone?',
            text: `Everyone in session ${sessionText(s)}${except} will be muted.`,
            confirm: 'Mute everyone',
            deny: 'Cancel',
            danger: true,
          },
        }),
        cancelButton(),
      ]),
      context('Only you can see this.'),
    ],
  };
}

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
          confirm: {
            title: 'Disconnect this participant?',
            text: `Connection ${code(connectionId)} will be dropped from session ${sessionText(s)}.`,
            confirm: 'Disconnect',
            deny: 'Cancel',
            danger: true,
          },
        }),
        cancelButton(),
      ]),
      context('Only you can see this.'),
    ],
  };
}

/** What a confirmation card becomes once acted upon (replaces it). */
export function resolvedCard(text: string): SlackMessage {
  return { text, blocks: [section(text)] };
}
