/**
 * Phone calls (SIP dial-out): the call card with "Hang up" and a DTMF keypad, the modal that
 * asks for digest credentials, and the notices. A password never reaches any of these: the
 * card only says that credentials were used.
 */
import { z } from 'zod';
import { code, userMention } from '../slack/mrkdwn';
import { type ModalView, type SlackMessage, LIMITS, context, plain, section, stripMrkdwn } from './blocks';
import { ACTION, BLOCK, CALLBACK } from './ids';
import { type SessionRef, footer, sessionText } from './notices';
import { SessionTargetSchema } from './values';

/** What the buttons of a call card carry: the session and the call's connection (and call id). */
export const CallTargetSchema = SessionTargetSchema.extend({ c: z.string().min(1), i: z.string().optional() });
export type CallTarget = z.output<typeof CallTargetSchema>;

/** The keys of the card's keypad, row by row. */
export const KEYPAD: readonly (readonly string[])[] = [
  ['1', '2', '3'],
  ['4', '5', '6'],
  ['7', '8', '9'],
  ['*', '0', '#'],
];
const KEYS = new Set(KEYPAD.flat());

export function keyActionId(key: string): string {
  return `${ACTION.sipKeyPrefix}${key}`;
}

/** The key a keypad button sends, or undefined for an action id that is not one. */
export function keyOfAction(actionId: string): string | undefined {
  if (!actionId.startsWith(ACTION.sipKeyPrefix)) return undefined;
  const key = actionId.slice(ACTION.sipKeyPrefix.length);
  return KEYS.has(key) ? key : undefined;
}

export function hangUpNotice(actor: string, s: SessionRef, connectionId: string): SlackMessage {
  const sentence = `${userMention(actor)} hung up the call ${code(connectionId)} in ${sessionText(s)}.`;
  return { text: stripMrkdwn(sentence), blocks: [section(`:telephone_receiver: ${sentence}`), context(footer(s))] };
}

/** The digits themselves (menu choices, PINs) are not repeated in the channel, only their count. */
export function dtmfNotice(actor: string, s: SessionRef, digitCount: number, connectionId?: string): SlackMessage {
  const what = digitCount === 1 ? 'a DTMF tone' : `${digitCount} DTMF tones`;
  const to = connectionId ? `connection ${code(connectionId)} in ${sessionText(s)}` : `everyone in ${sessionText(s)}`;
  const sentence = `${userMention(actor)} sent ${what} to ${to}.`;
  return { text: stripMrkdwn(sentence), blocks: [section(`:1234: ${sentence}`), context(footer(s))] };
}

// ---------------------------------------------------------------------------------------------
// The digest-credentials modal of `/dial --auth`. Everything but the credentials travels in
// `private_metadata`; the credentials exist only in the submission.

export const DialMetadataSchema = z.object({
  p: z.string().min(1),
  s: z.string().min(1),
  a: z.string().optional(),
  /** Channel the command came from: where the card goes. */
  c: z.string().optional(),
  u: z.string().min(1),
  f: z.string().optional(),
  h: z.record(z.string(), z.string()).optional(),
  sec: z.boolean().optional(),
  vid: z.boolean().optional(),
  obs: z.boolean().optional(),
});
export type DialMetadata = z.output<typeof DialMetadataSchema>;

export function parseDialMetadata(raw: string | undefined): DialMetadata | undefined {
  if (!raw) return undefined;
  try {
    const parsed = DialMetadataSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function encodeDialMetadata(metadata: DialMetadata): string {
  return JSON.stringify(metadata);
}

export function sipAuthModal(metadata: DialMetadata): ModalView {
  const s: SessionRef = { projectName: metadata.p, sessionId: metadata.s, ...(metadata.a ? { alias: metadata.a } : {}) };
  return {
    type: 'modal',
    callback_id: CALLBACK.sipAuthModal,
    title: plain('SIP credentials', LIMITS.modalTitle),
    submit: plain('Dial', LIMITS.modalButton),
    close: plain('Cancel', LIMITS.modalButton),
    private_metadata: encodeDialMetadata(metadata),
    blocks: [
      section(`Dial ${code(metadata.u)} into ${sessionText(s)} with the digest credentials the SIP endpoint expects.`),
      {
        type: 'input',
        block_id: BLOCK.sipAuthUsername,
        label: plain('Username'),
        element: { type: 'plain_text_input', action_id: ACTION.sipAuthUsername, max_length: 256, placeholder: plain('e.g. vidops', LIMITS.placeholder) },
      },
      {
        type: 'input',
        block_id: BLOCK.sipAuthPassword,
        label: plain('Password'),
        hint: plain('Slack shows what you type here. The password goes to the video service with this call only: vidops never posts, logs or stores it.'),
        element: { type: 'plain_text_input', action_id: ACTION.sipAuthPassword, max_length: 256 },
      },
    ],
  };
}
