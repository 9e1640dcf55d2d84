/**
 * What vidops muted, noted after each successful mute (one call per mute path): the stream's
 * latest mute or the session's mute-everyone state, with who, when and through what. The
 * session's posted consoles are redrawn at once with it, and their threads say who did it. A
 * failure here costs the note or the redraw, never the mute.
 */
import { type ConsoleSnapshot, GONE, type MuteState, type Snapshot, consoleSnapshot } from '../poller/snapshot';
import type { MuteKey } from '../store/types';
import { applyToCards } from './cards';
import type { Interaction } from './interaction';

/** Through what a mute was made, as the console words it ("muted by @x at 12:43 via /mute"). */
export const MUTE_VIA = {
  command: '/mute',
  button: 'the Mute button',
  muteAll: '/mute-all',
  /** The shortcut's form and the console's button. */
  everyone: 'Mute everyone',
  unmuteAll: '/unmute-all',
  /** The Undo of a mute-everyone notice. */
  undo: 'Undo',
} as const;
export type MuteVia = (typeof MUTE_VIA)[keyof typeof MUTE_VIA];

interface MutedSession {
  projectName: string;
  sessionId: string;
}

const keyOf = (ix: Interaction, s: MutedSession): MuteKey => ({ teamId: ix.teamId, projectName: s.projectName, sessionId: s.sessionId });

/** `streamName` words the console thread's line ("Muted Bob by @x"). */
export async function noteStreamMuted(ix: Interaction, s: MutedSession, streamId: string, via: MuteVia, streamName?: string): Promise<void> {
  await note(ix, s, 'mute', streamName || streamId.slice(0, 8), (key, at) => ix.services.store.putStreamMute(key, { streamId, by: ix.userId, at, via }));
}

export async function noteEveryoneMuted(ix: Interaction, s: MutedSession, excluded: readonly string[], via: MuteVia): Promise<void> {
  await note(ix, s, 'mute-all', undefined, (key, at) =>
    ix.services.store.putSessionMute(key, { active: true, excluded: [...excluded], by: ix.userId, at, via }),
  );
}

export async function noteMuteLifted(ix: Interaction, s: MutedSession, via: MuteVia): Promise<void> {
  await note(ix, s, 'unmute-all', undefined, (key, at) => ix.services.store.putSessionMute(key, { active: false, excluded: [], by: ix.userId, at, via }));
}

/** What vidops muted in the session (nothing when the store cannot say). */
export async function muteStateOf(ix: Interaction, s: MutedSession): Promise<MuteState> {
  try {
    return await ix.services.store.getMuteState(keyOf(ix, s));
  } catch (error) {
    ix.logger.warn('could not read what vidops muted', { error });
    return { streams: [] };
  }
}

async function note(
  ix: Interaction,
  s: MutedSession,
  action: string,
  detail: string | undefined,
  write: (key: MuteKey, at: number) => Promise<void>,
): Promise<void> {
  const key = keyOf(ix, s);
  try {
    await write(key, ix.services.clock());
  } catch (error) {
    ix.logger.warn('could not note a mute; the console will not show it', { error });
    return;
  }
  await redrawConsoles(ix, s, action, detail);
}

/** Redraws the session's live consoles (ended ones keep their last words) with the mute state now. */
async function redrawConsoles(ix: Interaction, s: MutedSession, action: string, detail: string | undefined): Promise<void> {
  let resourceIds: string[];
  try {
    const consoles = await ix.services.store.listWatches({ kind: 'session-console', sessionId: s.sessionId, projectName: s.projectName, teamId: ix.teamId });
    resourceIds = [...new Set(consoles.map((w) => w.resourceId))];
  } catch (error) {
    ix.logger.warn('could not find the consoles to redraw after a mute', { error });
    return;
  }
  if (resourceIds.length === 0) return;
  const mutes = await muteStateOf(ix, s);
  const withMutes = (previous: Snapshot | undefined): Snapshot =>
    previous && previous.status !== GONE ? { ...(previous as ConsoleSnapshot), mutes } : consoleSnapshot([], ix.services.clock(), mutes);
  for (const resourceId of resourceIds) {
    await applyToCards(ix, { kind: 'session-console', resourceId, action, ...(detail !== undefined && { detail }), state: withMutes });
  }
}
