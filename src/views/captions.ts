/** Live captions: the stop notice and what the Stop button carries (the card is src/kinds/captions.ts). */
import { z } from 'zod';
import { code, userMention } from '../slack/mrkdwn';
import { type KnownBlock, type SlackMessage, actions, button, context, section, stripMrkdwn } from './blocks';
import { dialogFor } from './confirmation-policy';
import { ACTION } from './ids';
import { type SessionRef, footer, sessionText } from './notices';
import { SessionTargetSchema, encodeValue, sessionTarget } from './values';

/** What the Stop button of a captions card carries. */
export const CaptionsTargetSchema = SessionTargetSchema.extend({ i: z.string().min(1) });
export type CaptionsTarget = z.output<typeof CaptionsTargetSchema>;

/** The button of the `/captions stop` card: the session only when known (captions started elsewhere name none). */
export const CaptionsStopSchema = SessionTargetSchema.partial({ s: true }).extend({ i: z.string().min(1) });
export type CaptionsStop = z.output<typeof CaptionsStopSchema>;

/** `/captions stop`: the one question (ephemeral); its button stops them. */
export function captionsStopConfirmCard(projectName: string, captionsId: string, s: SessionRef | undefined): SlackMessage {
  const where = s ? ` in ${sessionText(s)}` : '';
  const value: CaptionsStop = { p: projectName, i: captionsId, ...(s ? sessionTarget(s) : {}) };
  return {
    text: stripMrkdwn(`Stop live captions${where}?`),
    blocks: [
      section(`:warning: *Stop live captions${where}?* (${code(captionsId)}) They stop for everyone; \`/captions start\` starts new ones.`),
      actions([
        button({
          actionId: ACTION.confirmCaptionsStop,
          text: 'Stop captions',
          style: 'danger',
          value: encodeValue(value),
          ...dialogFor('captions-stop', 'typed', {
            title: 'Stop live captions?',
            text: `Captions ${code(captionsId)} stop for everyone.`,
            confirm: 'Stop captions',
            danger: true,
          }),
        }),
        button({ actionId: ACTION.cancel, text: 'Cancel' }),
      ]),
      context(s?.alias ? `Only you can see this. ${footer(s)}` : 'Only you can see this.'),
    ],
  };
}

/** Posted in the channel when captions were stopped from Slack. */
export function captionsStoppedNotice(actor: string, captionsId: string, s: SessionRef | undefined): SlackMessage {
  const where = s ? ` in ${sessionText(s)}` : '';
  const sentence = `${userMention(actor)} stopped live captions${where} (${code(captionsId)}).`;
  const blocks: KnownBlock[] = [section(`:closed_caption: ${sentence}`)];
  if (s) blocks.push(context(footer(s)));
  return { text: stripMrkdwn(sentence), blocks };
}
