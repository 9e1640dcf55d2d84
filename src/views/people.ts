/**
 * People by name (`/mute <who>`, `/kick <who>`, the console's Kick): the picker for an
 * ambiguous name, the sentence for nobody, and the one confirmation of a kick naming the person
 * and the session — "Disconnect Bob (camera, screen) from standup?" — whose button acts at once.
 */
import { z } from 'zod';
import { participantLabel, participantText } from '../kinds/session-console';
import { code, escapeAndTruncate, userMention } from '../slack/mrkdwn';
import { type KnownBlock, type SlackMessage, actions, button, context, fallbackText, section } from './blocks';
import { dialogFor } from './confirmation-policy';
import { ACTION } from './ids';
import { type SessionRef, footer, sessionText } from './notices';
import { KickTargetSchema, StreamTargetSchema, encodeValue, sessionTarget } from './values';

/** A stream of the person as the cards word it. */
export interface PersonStream {
  id: string;
  name?: string;
  videoType?: string;
}

export type PeopleOperation = 'mute' | 'kick';

/** What a picker button carries: the stream picked and what to do with it. */
export const PickTargetSchema = StreamTargetSchema.extend({ o: z.enum(['mute', 'kick']) });
/** What the kick card's Disconnect carries: the connection and how the person was named. */
export const KickPersonTargetSchema = KickTargetSchema.extend({ n: z.string().optional() });

/** Candidates a picker shows (one button each; an actions block holds 25). */
export const MAX_PICKER_CANDIDATES = 20;

/** "Bob (camera, screen)": the first named stream's name, then every stream's type. */
export function personLabel(streams: readonly PersonStream[]): string {
  const named = streams.find((s) => s.name) ?? streams[0];
  const who = named ? participantLabel(named) : 'this participant';
  const types = streams.map((s) => s.videoType ?? 'stream');
  return types.length > 0 ? `${who} (${types.join(', ')})` : who;
}

/** The session in a sentence: its alias, else "this session" (its ID goes in the context line). */
const sessionWords = (s: SessionRef): string => (s.alias ? code(s.alias) : 'this session');

const idLine = (s: SessionRef): string => `Project *${escapeAndTruncate(s.projectName, 100)}* · session ID ${code(s.sessionId)}`;

export function pickerMessage(s: SessionRef, query: string, candidates: readonly PersonStream[], operation: PeopleOperation): SlackMessage {
  const shown = candidates.slice(0, MAX_PICKER_CANDIDATES);
  const verb = operation === 'mute' ? 'mute' : 'disconnect';
  const sentence = `Several people in ${sessionWords(s)} match “${escapeAndTruncate(query, 60)}”: whom do you want to ${verb}?`;
  const blocks: KnownBlock[] = [
    section(`:busts_in_silhouette: ${sentence}`),
    // One block per person: Slack wants each action_id once per block.
    ...shown.map((stream) =>
      actions([
        button({
          actionId: ACTION.pickParticipant,
          text: `${participantLabel(stream)} · ${stream.videoType ?? 'stream'} · ${stream.id.slice(0, 8)}`,
          value: encodeValue({ ...sessionTarget(s), t: stream.id, ...(stream.name ? { n: stream.name.slice(0, 200) } : {}), o: operation }),
        }),
      ]),
    ),
  ];
  if (candidates.length > shown.length) blocks.push(context(`${candidates.length - shown.length} more match: type more of the name.`));
  blocks.push(context(`Only you can see this · ${idLine(s)}`));
  return { text: fallbackText(sentence), blocks };
}

/** Nobody matched: who is there, and an example. */
export function nobodyMessage(s: SessionRef, query: string, present: readonly PersonStream[], operation: PeopleOperation): SlackMessage {
  const command = operation === 'mute' ? '/mute' : '/kick';
  const names = present.slice(0, 15).map((p) => participantText(p, 40));
  const here =
    present.length === 0
      ? 'Nobody is publishing there right now.'
      : `Here now: ${names.join(', ')}${present.length > names.length ? ` and ${present.length - names.length} more` : ''}.`;
  const example = present[0] ? `${command} ${participantLabel(present[0]).split(' ')[0]}` : `${command} Bob`;
  const text = `:warning: Nobody in ${sessionWords(s)} is called “${escapeAndTruncate(query, 60)}”. ${here} Give a name (any case, the start is enough), a stream ID or a connection ID, e.g. \`${escapeAndTruncate(example, 60)}\`.`;
  return { text: fallbackText(text), blocks: [section(text)] };
}

/** The one confirmation of a kick: its Disconnect acts without another dialog. */
export function kickPersonCard(s: SessionRef, connectionId: string, streams: readonly PersonStream[], note?: string): SlackMessage {
  const who = streams.length > 0 ? personLabel(streams) : `connection ${connectionId}`;
  const whoText = streams.length > 0 ? `*${escapeAndTruncate(who, 120)}*` : `connection ${code(connectionId)}`;
  const question = `Disconnect ${whoText} from ${sessionWords(s)}?`;
  const blocks: KnownBlock[] = [
    section(`:warning: ${question} They can rejoin if their app reconnects.`),
    actions([
      button({
        actionId: ACTION.kickPerson,
        text: 'Disconnect',
        style: 'danger',
        value: encodeValue({ ...sessionTarget(s), c: connectionId, ...(streams.length > 0 ? { n: who.slice(0, 200) } : {}) }),
        accessibilityLabel: `Disconnect ${who}`,
        ...dialogFor('kick', 'typed', { title: 'Disconnect?', text: question, confirm: 'Disconnect', danger: true }),
      }),
      button({ actionId: ACTION.cancel, text: 'Cancel' }),
    ]),
    context(`${note ? `${note} · ` : ''}Connection ${code(connectionId)} · ${idLine(s)} · Only you can see this.`),
  ];
  return { text: fallbackText(question), blocks };
}

export function kickPersonNotice(actor: string, s: SessionRef, connectionId: string, label?: string): SlackMessage {
  const who = label ? `*${escapeAndTruncate(label, 120)}*` : code(connectionId);
  const sentence = `${userMention(actor)} disconnected ${who} from ${sessionText(s)}.`;
  return { text: fallbackText(sentence), blocks: [section(`:door: ${sentence}`), context(`${footer(s)} · connection ${code(connectionId)}`)] };
}
