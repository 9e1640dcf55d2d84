/**
 * The live-captions kind: its words (languages, why captions ended), its card model (language,
 * partial captions and who started them; the state holds when and for how long), the one
 * renderer of its card, and Stop while they run. The service has no captions status to read:
 * they end by the clock or when stopped from Slack.
 */
import { z } from 'zod';
import type { CaptionsSnapshot } from '../poller/snapshot';
import { code, escapeAndTruncate, escapeMrkdwn, userMention } from '../slack/mrkdwn';
import { type Button, type KnownBlock, actions, button, context, fallbackText, fields, section } from '../views/blocks';
import { formatDuration, slackTime } from '../views/format';
import { type Via, dialogFor } from '../views/confirmation-policy';
import { ACTION } from '../views/ids';
import { type SessionRef, footer, sessionText } from '../views/notices';
import { encodeValue, sessionTarget } from '../views/values';
import { type ResourceKind, actionsContext } from './kind';

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

/** "Stop captions": Slack's confirm dialog first on a card; none on the card answering `/captions stop` (`typed`). */
export function captionsStopButton(s: SessionRef, captionsId: string, via: Via = 'clicked'): Button {
  return button({
    actionId: ACTION.stopCaptions,
    text: 'Stop captions',
    style: 'danger',
    value: encodeValue({ ...sessionTarget(s), i: captionsId }),
    ...dialogFor('captions-stop', via, {
      title: 'Stop live captions?',
      text: `Captions in ${sessionText(s)} stop for everyone. They can be started again with \`/captions start\`.`,
      confirm: 'Stop captions',
      danger: true,
    }),
  });
}

export const CaptionsContextSchema = z.object({
  startedBy: z.string().optional(),
  alias: z.string().optional(),
  languageCode: z.string().optional(),
  partialCaptions: z.boolean().optional(),
});
export type CaptionsContext = z.output<typeof CaptionsContextSchema>;

export const captionsKind: ResourceKind<CaptionsSnapshot, CaptionsContext> = {
  kind: 'captions',
  nouns: { one: 'Live captions', many: 'Live captions' },
  context: CaptionsContextSchema,
  render: ({ resourceId, sessionId, projectName, state, context: c, actions: done }) => {
    const s: SessionRef = { projectName, sessionId, ...(c.alias !== undefined && { alias: c.alias }) };
    const known = state && 'startedAt' in state ? state : undefined;
    const active = state?.status === 'active';
    const stop = [...done].reverse().find((a) => a.action === 'stop');
    const who = c.startedBy ? `${userMention(c.startedBy)} started live captions` : 'Live captions';
    const sentence = `${who} in ${sessionText(s)}${active ? '.' : ' — ended.'}`;
    const why = stop ? `stopped by ${userMention(stop.by)}` : known ? `maximum duration reached (${formatDuration(known.maxDurationS)})` : 'no longer running';
    const items = [
      `*Status*\n${active ? ':large_green_circle: running' : `:black_circle: ended — ${why}`}`,
      ...(c.languageCode !== undefined ? [`*Language*\n${escapeAndTruncate(languageName(c.languageCode), 60)} (${code(c.languageCode)})`] : []),
      ...(known
        ? [`*Stops by itself*\nafter ${formatDuration(known.maxDurationS)}${active ? ` (by ${slackTime(known.startedAt + known.maxDurationS * 1000)})` : ''}`]
        : []),
      ...(c.partialCaptions !== undefined
        ? [`*Partial captions*\n${c.partialCaptions ? 'on (faster, a little less accurate)' : 'off (final captions only)'}`]
        : []),
      `*Captions ID*\n${code(resourceId)}`,
    ];
    const blocks: KnownBlock[] = [section(`:closed_caption: ${sentence}`), fields(items)];
    const line = actionsContext(captionsKind, done);
    if (line) blocks.push(context(line));
    if (active) blocks.push(actions([captionsStopButton(s, resourceId)]));
    blocks.push(context(`${footer(s)} · one captions session per video session; \`/captions stop\` stops them too`));
    return { text: fallbackText(sentence), blocks };
  },
  actionWords: (record) => (record.action === 'stop' ? 'Stopped' : escapeMrkdwn(record.action)),
};
