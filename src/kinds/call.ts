/**
 * The phone-call kind (SIP dial-out): its card model (the number dialled, caller ID, options,
 * the call's connection and stream, who dialled), the one renderer of its card with Hang up and
 * the keypad while the call lasts, and its words. A password never reaches the model: the card
 * only says that credentials were used.
 */
import { z } from 'zod';
import type { SipSnapshot } from '../poller/snapshot';
import { code, escapeMrkdwn, userMention } from '../slack/mrkdwn';
import { type Button, type KnownBlock, actions, button, context, fallbackText, fields, section } from '../views/blocks';
import { dialogFor } from '../views/confirmation-policy';
import { ACTION } from '../views/ids';
import { type SessionRef, footer, sessionText } from '../views/notices';
import { keyActionId, KEYPAD } from '../views/sip';
import { encodeValue, sessionTarget } from '../views/values';
import { type ResourceKind, actionsContext } from './kind';

export interface DialFacts {
  uri: string;
  from?: string;
  secure: boolean;
  video: boolean;
  observeForceMute: boolean;
  /** Names of the custom SIP headers (their values are not shown). */
  headerNames: readonly string[];
  /** Digest credentials were given (never which). */
  digestAuth: boolean;
}

export interface DialedCall {
  id: string;
  connectionId: string;
  streamId: string;
}

function optionsText(facts: DialFacts): string {
  const options = [
    facts.secure ? 'encrypted media' : undefined,
    facts.video ? 'with video' : 'audio only',
    facts.observeForceMute ? 'caller can toggle mute with *6' : undefined,
    facts.digestAuth ? 'digest credentials' : undefined,
    facts.headerNames.length > 0 ? `headers ${facts.headerNames.slice(0, 10).map(code).join(', ')}` : undefined,
  ].filter((o): o is string => o !== undefined);
  return options.join(' · ');
}

/** "Hang up" for a call: force-disconnects its connection (Slack's confirm dialog first). */
export function hangUpButton(s: SessionRef, call: Pick<DialedCall, 'id' | 'connectionId'>, uri?: string): Button {
  return button({
    actionId: ACTION.sipHangUp,
    text: 'Hang up',
    style: 'danger',
    value: encodeValue({ ...sessionTarget(s), c: call.connectionId, i: call.id }),
    ...dialogFor('call-hang-up', 'clicked', {
      title: 'Hang up?',
      text: `The call${uri ? ` to ${code(uri)}` : ''} is disconnected from ${sessionText(s)}.`,
      confirm: 'Hang up',
      danger: true,
    }),
  });
}

/** The 4×3 keypad: one actions block per row, each key playing its tone to the call's connection. */
export function keypadBlocks(s: SessionRef, connectionId: string): KnownBlock[] {
  const value = encodeValue({ ...sessionTarget(s), c: connectionId });
  return KEYPAD.map((row) =>
    actions(row.map((key) => button({ actionId: keyActionId(key), text: key, value, accessibilityLabel: `Send ${key} to the call` }))),
  );
}

export const CallContextSchema = z.object({
  startedBy: z.string().optional(),
  alias: z.string().optional(),
  uri: z.string().optional(),
  from: z.string().optional(),
  secure: z.boolean().optional(),
  video: z.boolean().optional(),
  observeForceMute: z.boolean().optional(),
  headerNames: z.array(z.string()).optional(),
  digestAuth: z.boolean().optional(),
  connectionId: z.string().optional(),
  streamId: z.string().optional(),
});
export type CallContext = z.output<typeof CallContextSchema>;

export function callContext(call: DialedCall, facts: DialFacts, who: { startedBy?: string; alias?: string }): CallContext {
  return CallContextSchema.parse({ ...who, ...facts, connectionId: call.connectionId, streamId: call.streamId });
}

const STATUS: Readonly<Record<SipSnapshot['status'], string>> = {
  dialing: ':hourglass_flowing_sand: ringing',
  connected: ':large_green_circle: connected',
  ended: ':black_circle: ended',
};

export const callKind: ResourceKind<SipSnapshot, CallContext> = {
  kind: 'sip',
  nouns: { one: 'Phone call', many: 'Phone calls' },
  context: CallContextSchema,
  render: ({ resourceId, sessionId, projectName, state, context: c, actions: done }) => {
    const s: SessionRef = { projectName, sessionId, ...(c.alias !== undefined && { alias: c.alias }) };
    const call = state && 'streamId' in state ? state : undefined;
    const connectionId = c.connectionId ?? call?.connectionId;
    const streamId = c.streamId ?? call?.streamId;
    const status = state?.status === 'dialing' || state?.status === 'connected' || state?.status === 'ended' ? state.status : 'ended';
    const live = status !== 'ended';
    const number = c.uri ? code(c.uri) : 'a phone number';
    const sentence = c.startedBy ? `${userMention(c.startedBy)} dialed ${number} into ${sessionText(s)}.` : `A call to ${number} in ${sessionText(s)}.`;
    const hungUp = [...done].reverse().find((a) => a.action === 'hang-up');
    const ended = hungUp ? ` — hung up by ${userMention(hungUp.by)}` : call?.neverConnected ? ' — never connected' : '';
    const facts = [`*Status*\n${STATUS[status]}${status === 'ended' ? ended : ''}`, `*Caller ID*\n${c.from ? code(c.from) : '_not set_'}`];
    if (c.uri !== undefined) {
      facts.push(
        `*Options*\n${optionsText({ uri: c.uri, secure: c.secure ?? false, video: c.video ?? false, observeForceMute: c.observeForceMute ?? false, headerNames: c.headerNames ?? [], digestAuth: c.digestAuth ?? false })}`,
      );
    }
    facts.push(`*Call ID*\n${code(resourceId)}`);
    if (connectionId) facts.push(`*Connection*\n${code(connectionId)}`);
    if (streamId) facts.push(`*Stream*\n${code(streamId)}`);
    const blocks: KnownBlock[] = [section(`:telephone_receiver: ${sentence}`), fields(facts)];
    const line = actionsContext(callKind, done);
    if (line) blocks.push(context(line));
    if (live && connectionId) {
      blocks.push(actions([hangUpButton(s, { id: resourceId, connectionId }, c.uri)]));
      blocks.push(context('*Keypad* — each key plays its tone to the call (for menus and PINs).'));
      blocks.push(...keypadBlocks(s, connectionId));
    }
    blocks.push(context(`${footer(s)} · a call ends after 5 minutes without media and after 6 hours at most`));
    return { text: fallbackText(`${sentence.replace(/\.$/, '')}: ${status === 'dialing' ? 'ringing' : status}`), blocks };
  },
  actionWords: (record) => {
    const words: Record<string, string> = { 'hang-up': 'Hung up', dtmf: 'Tones sent' };
    return words[record.action] ?? escapeMrkdwn(record.action);
  },
};
