/**
 * Posts the session console in the channel (`/streams --post`, "Post in channel") and hands it
 * to the poller, which keeps it current until the session is empty or an hour has passed. Each
 * post is its own card (resource `<session>@<ts>`), so posting again never silences the last one.
 */
import type { ConsoleSession } from '../kinds/session-console';
import { startModel } from '../kinds';
import type { Interaction } from '../interaction/interaction';
import { announce, replyEphemeral } from '../slack/respond';
import { consoleNow, readStreams } from './people';

export async function postConsole(ix: Interaction, s: ConsoleSession): Promise<void> {
  const read = await readStreams(ix, s);
  if (!read.ok) return replyEphemeral(ix, read.message);
  const { message, state } = await consoleNow(ix, s, read.streams, { by: ix.userId });
  const announced = await announce(ix, message);
  // Only a card in a channel is kept current; the asker alone got it otherwise (announce says why).
  if (announced.delivered !== 'channel' || announced.ts === undefined || announced.channel === undefined) return;
  if (state.status === 'ended') return;
  try {
    await ix.services.track({
      kind: 'session-console',
      resourceId: `${s.sessionId}@${announced.ts}`,
      sessionId: s.sessionId,
      target: { teamId: ix.teamId, channelId: announced.channel, projectName: s.projectName, messageTs: announced.ts },
      initialState: state,
      card: startModel({ postedBy: ix.userId, channelId: announced.channel, ...(s.alias !== undefined && { alias: s.alias }) }),
    });
  } catch (error) {
    ix.logger.warn('could not hand the console to the poller; it will not be kept current', { error });
  }
}
