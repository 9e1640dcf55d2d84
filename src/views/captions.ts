/** Live captions: the in-channel card of a start (with its Stop button) and the stop notice. */
import { z } from 'zod';
import { formatDuration } from '../poller/messages';
import { code, escapeAndTruncate, userMention } from '../slack/mrkdwn';
import { type Button, type KnownBlock, type SlackMessage, actions, button, context, fields, section, stripMrkdwn } from './blocks';
import { ACTION } from './ids';
import type { SessionRef } from './notices';
import { SessionTargetSchema, encodeValue, sessionTarget } from './values';

/** What the Stop button of a captions card carries. */
export const CaptionsTargetSchema = SessionTargetSchema.extend({ i: z.string().min(1) });
export type CaptionsTarget = z.output<typeof CaptionsTargetSchema>;

const LANGUAGE_NAMES: Readonly<Record<string, string>> = {
  'en-US': 'English (US)',
  'en-AU': 'English (Australia)',
  'en-GB': 'English (UK)',
  'es-US': 'Spanish (US)',
  'zh-CN': 'Chinese (Mandarin)',
  'fr-FR': 'French (France)',
  'fr-CA': 'French (Canada)',
  'de-DE': 'German',
  'hi-IN': 'Hindi',
  'it-IT': 'Italian',
  'ja-JP': 'Japanese',
  'ko-KR': 'Korean',
  'pt-BR': 'Portuguese (Brazil)',
  'th-TH': 'Thai',
};

export function languageName(languageCode: string): string {
  return LANGUAGE_NAMES[languageCode] ?? languageCode;
}

export interface CaptionsFacts {
  captionsId: string;
  languageCode: string;
  maxDurationS: number;
  partialCaptions: boolean;
}

function sessionText(s: SessionRef): string {
  return `session ${code(s.alias ?? s.sessionId)}`;
}

function footer(s: SessionRef): string {
  return `Project *${escapeAndTruncate(s.projectName, 100)}*${s.alias ? ` · session ID ${code(s.sessionId)}` : ''}`;
}

/** "Stop captions" (Slack's confirm dialog first). */
export function captionsStopButton(s: SessionRef, captionsId: string): Button {
  return button({
    actionId: ACTION.stopCaptions,
    text: 'Stop captions',
    style: 'danger',
    value: encodeValue({ ...sessionTarget(s), i: captionsId }),
    confirm: {
      title: 'Stop live captions?',
      text: `Captions in ${sessionText(s)} stop for everyone. They can be started again with \`/captions start\`.`,
      confirm: 'Stop captions',
      danger: true,
    },
  });
}

/** Posted in the channel when captions start; the watch replies in its thread. */
export function captionsCard(actor: string, s: SessionRef, facts: CaptionsFacts): SlackMessage {
  const sentence = `${userMention(actor)} started live captions in ${sessionText(s)}.`;
  const blocks: KnownBlock[] = [
    section(`:closed_caption: ${sentence}`),
    fields([
      `*Language*\n${escapeAndTruncate(languageName(facts.languageCode), 60)} (${code(facts.languageCode)})`,
      `*Stops by itself*\nafter ${formatDuration(facts.maxDurationS)}`,
      `*Partial captions*\n${facts.partialCaptions ? 'on (faster, a little less accurate)' : 'off (final captions only)'}`,
      `*Captions ID*\n${code(facts.captionsId)}`,
    ]),
    actions([captionsStopButton(s, facts.captionsId)]),
    context(`${footer(s)} · one captions session per video session; \`/captions stop\` stops them too`),
  ];
  return { text: stripMrkdwn(sentence), blocks };
}

/** Posted in the channel when captions were stopped from Slack. */
export function captionsStoppedNotice(actor: string, captionsId: string, s: SessionRef | undefined): SlackMessage {
  const where = s ? ` in ${sessionText(s)}` : '';
  const sentence = `${userMention(actor)} stopped live captions${where} (${code(captionsId)}).`;
  const blocks: KnownBlock[] = [section(`:closed_caption: ${sentence}`)];
  if (s) blocks.push(context(footer(s)));
  return { text: stripMrkdwn(sentence), blocks };
}
