/**
 * The use cases behind people by name, shared by `/mute`, `/kick`, `/streams` and the buttons
 * (src/actions/console.ts): read who is in the session, find whom a text means (picker or
 * "nobody" answered here), mute them, and build the one kick confirmation — whose connection
 * comes from Advanced Insights, or a sentence saying what to paste instead.
 */
import { VideoNotFoundError } from '../api';
import { type ConsoleSession, participantLabel, renderConsole } from '../kinds/session-console';
import { performChange } from '../interaction/change';
import type { Interaction } from '../interaction/interaction';
import { MUTE_VIA, type MuteVia, muteStateOf, noteStreamMuted } from '../interaction/mute-state';
import { type ConsoleStream, consoleSnapshot, consoleStreams } from '../poller/snapshot';
import { replyEphemeral } from '../slack/respond';
import { code, escapeAndTruncate } from '../slack/mrkdwn';
import { type SlackMessage, warning } from '../views/blocks';
import { errorMessage } from '../views/errors';
import { muteStreamNotice } from '../views/notices';
import { type PeopleOperation, kickPersonCard, kickPersonNotice, nobodyMessage, pickerMessage } from '../views/people';
import { type Participant, matchPeople } from './people-match';
import { sessionPublishers } from './usage/resolve-connection';

export type StreamsRead = { ok: true; streams: ConsoleStream[] } | { ok: false; message: SlackMessage };

/** The session's streams as the console shows them; none while nobody ever published (404). */
export async function readStreams(ix: Interaction, s: ConsoleSession): Promise<StreamsRead> {
  try {
    const page = await ix.services.projects.client(s.projectName).streams.list(s.sessionId);
    return { ok: true, streams: consoleStreams(page.items) };
  } catch (error) {
    if (error instanceof VideoNotFoundError) return { ok: true, streams: [] };
    ix.logger.warn('listing streams failed', { error });
    return { ok: false, message: errorMessage(error, { operation: 'list-streams', project: s.projectName, sessionId: s.sessionId }) };
  }
}

/** The private console, or the card posted in the channel (the poller's starting state comes with it). */
export async function consoleNow(
  ix: Interaction,
  s: ConsoleSession,
  streams: readonly ConsoleStream[],
  posted?: { by: string },
): Promise<{ message: SlackMessage; state: ReturnType<typeof consoleSnapshot> }> {
  const mutes = await muteStateOf(ix, s);
  const now = ix.services.clock();
  // A console posted on an empty session says at once that there is nothing to keep current.
  const card = posted && { ...posted, ...(streams.length === 0 && { ended: 'empty' as const }) };
  return { message: renderConsole({ session: s, streams, mutes, now, ...(card && { posted: card }) }), state: consoleSnapshot(streams, now, mutes) };
}

/**
 * After a Mute or Mute everyone clicked on the private console: that console is drawn again in
 * its place, so the asker sees the mute on the row they clicked (a posted console is redrawn by
 * the change itself). Nothing is said when the streams cannot be read: the notice already was.
 */
export async function refreshPrivateConsole(ix: Interaction, s: ConsoleSession): Promise<void> {
  const read = await readStreams(ix, s);
  if (!read.ok) return;
  await replyEphemeral(ix, (await consoleNow(ix, s, read.streams)).message, { replaceOriginal: true });
}

export type Whom = { type: 'person'; streams: Participant[] } | { type: 'id'; id: string } | { type: 'answered' };

/** Whom `query` means; a picker or a "nobody" sentence is answered here (`answered`). */
export async function findWhom(ix: Interaction, s: ConsoleSession, query: string, operation: PeopleOperation): Promise<Whom> {
  const read = await readStreams(ix, s);
  if (!read.ok) {
    await replyEphemeral(ix, read.message);
    return { type: 'answered' };
  }
  const participants: Participant[] = read.streams.map((st) => ({
    streamId: st.id,
    ...(st.name && { name: st.name }),
    ...(st.videoType && { videoType: st.videoType }),
  }));
  const match = matchPeople(query, participants);
  switch (match.type) {
    case 'person':
      return { type: 'person', streams: match.person.streams };
    case 'id':
      return match;
    case 'ambiguous':
      await replyEphemeral(ix, pickerMessage(s, query, match.candidates.map(asStream), operation));
      return { type: 'answered' };
    case 'none':
      await replyEphemeral(ix, nobodyMessage(s, query, read.streams, operation));
      return { type: 'answered' };
  }
}

export const asStream = (p: Participant): ConsoleStream => ({
  id: p.streamId,
  ...(p.name && { name: p.name }),
  ...(p.videoType && { videoType: p.videoType }),
});

/** Mutes one stream through the change path and notes it (the console shows who did it). */
export async function muteOne(ix: Interaction, s: ConsoleSession, streamId: string, via: MuteVia, name?: string): Promise<boolean> {
  const done = await performChange(ix, {
    command: '/mute',
    target: `stream ${streamId} in session ${s.sessionId}`,
    projectName: s.projectName,
    errorContext: { operation: 'mute-stream', sessionId: s.sessionId, streamId },
    call: (video) => video.moderation.muteStream(s.sessionId, streamId),
    notice: () => muteStreamNotice(ix.userId, s, streamId, name),
  });
  if (done.ok) await noteStreamMuted(ix, s, streamId, via, name);
  return done.ok;
}

/** The streams a connection publishes now, by Insights (empty when it cannot tell). */
export async function streamsOfConnection(ix: Interaction, s: ConsoleSession, connectionId: string): Promise<ConsoleStream[]> {
  const known = await sessionPublishers(ix.services.insights(s.projectName), s);
  if (!known.ok) return [];
  const ids = new Set(known.publishers.filter((p) => p.connectionId === connectionId && p.live).map((p) => p.streamId));
  if (ids.size === 0) return [];
  const read = await readStreams(ix, s);
  return read.ok ? read.streams.filter((st) => ids.has(st.id)) : [];
}

/** `/mute <connection-id>`: its streams, else the text read as a stream ID (the service says whether it exists). */
export async function muteById(ix: Interaction, s: ConsoleSession, id: string): Promise<void> {
  const streams = await streamsOfConnection(ix, s, id);
  if (streams.length === 0) {
    await muteOne(ix, s, id, MUTE_VIA.command);
    return;
  }
  for (const stream of streams) await muteOne(ix, s, stream.id, MUTE_VIA.command, stream.name);
}

export type PersonConnection = { ok: true; connectionId: string; streams: ConsoleStream[] } | { ok: false; message: SlackMessage };

/**
 * The connection of a person found by name or stream, from Insights, with every stream it
 * publishes now; or why it cannot be had and what to paste instead.
 */
export async function connectionOf(ix: Interaction, s: ConsoleSession, streams: readonly ConsoleStream[]): Promise<PersonConnection> {
  const first = streams[0]!;
  const who = escapeAndTruncate(participantLabel(first), 80);
  const known = await sessionPublishers(ix.services.insights(s.projectName), s);
  const pasteInstead = 'Paste their connection ID instead: `/kick <connection-id>`.';
  if (!known.ok) {
    // Most reasons already say to give the connection ID; the others get the sentence.
    const hint = /connection ID/.test(known.reason) ? '' : ` ${pasteInstead}`;
    return { ok: false, message: warning(`I could not find which connection *${who}* uses, so nobody was disconnected. ${known.reason}${hint}`) };
  }
  const publisher = known.publishers.find((p) => p.streamId === first.id);
  if (!publisher) {
    return {
      ok: false,
      message: warning(
        `Insights does not know who publishes *${who}*'s stream ${code(first.id)} yet (it shows streams about 5 minutes after they start), so nobody was disconnected. Try again shortly. ${pasteInstead}`,
      ),
    };
  }
  const theirIds = new Set(known.publishers.filter((p) => p.connectionId === publisher.connectionId).map((p) => p.streamId));
  const read = await readStreams(ix, s);
  const theirs = read.ok ? read.streams.filter((st) => theirIds.has(st.id)) : [];
  return { ok: true, connectionId: publisher.connectionId, streams: theirs.length > 0 ? theirs : [...streams] };
}

/** The one kick confirmation for a person found by name or stream (or why it cannot be made). */
export async function kickCardFor(ix: Interaction, s: ConsoleSession, streams: readonly ConsoleStream[]): Promise<SlackMessage> {
  const found = await connectionOf(ix, s, streams);
  return found.ok ? kickPersonCard(s, found.connectionId, found.streams) : found.message;
}

/** Disconnects the person's connection through the change path; the session's consoles are read again soon after. */
export async function disconnectPerson(ix: Interaction, s: ConsoleSession, connectionId: string, label?: string): Promise<boolean> {
  const done = await performChange(ix, {
    command: '/kick',
    target: `connection ${connectionId} in session ${s.sessionId}`,
    projectName: s.projectName,
    errorContext: { operation: 'disconnect', sessionId: s.sessionId, connectionId },
    call: (video) => video.moderation.disconnect(s.sessionId, connectionId),
    notice: () => kickPersonNotice(ix.userId, s, connectionId, label),
  });
  if (done.ok) {
    await ix.services.store
      .expedite({ kind: 'session-console', sessionId: s.sessionId, projectName: s.projectName, teamId: ix.teamId }, ix.services.clock())
      .catch((error: unknown) => ix.logger.warn('could not hurry the consoles after a kick', { error }));
  }
  return done.ok;
}
