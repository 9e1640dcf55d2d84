/** Answers of `/video watch|unwatch|watches` besides the watch's card (src/kinds/session-watch): the stop notice, the channel's list. */
import { ALL_SESSIONS, type DiscoverableKind } from '../poller/snapshot';
import type { Watch } from '../poller/watch';
import { escapeAndTruncate, userMention } from '../slack/mrkdwn';
import { type SlackMessage, context, section, stripMrkdwn } from './blocks';
import { discoveryNouns as nounsOf, watchScope } from '../kinds/session-watch';
import { dashboardBlocks } from './dashboard';

function project(name: string): string {
  return `*${escapeAndTruncate(name, 100)}*`;
}

export interface WatchScope {
  projectName: string;
  /** A session ID, or ALL_SESSIONS. */
  sessionId: string;
  kinds: readonly DiscoverableKind[];
  /** The alias the session was named by. */
  alias?: string;
}

/**
 * The scope in plain words for fallback texts (stripping mrkdwn would eat the underscores of
 * session IDs). Slack parses a message's fallback text as mrkdwn too, so what was typed is escaped.
 */
const plainScope = (scope: Pick<WatchScope, 'projectName' | 'sessionId'>): string =>
  scope.sessionId === ALL_SESSIONS ? `every session of ${escapeAndTruncate(scope.projectName, 100)}` : `session ${escapeAndTruncate(scope.sessionId, 300)}`;

export function alreadyWatchingMessage(scope: WatchScope): SlackMessage {
  const text = `:eyes: This channel already watches ${watchScope(scope)} for new ${nounsOf(scope.kinds)}. \`/video unwatch\` stops it first if you want other kinds.`;
  return { text: stripMrkdwn(text), blocks: [section(text)] };
}

export function unwatchNotice(actor: string, scope: Pick<WatchScope, 'projectName' | 'sessionId'>, following: number): SlackMessage {
  const stopped = following > 0 ? `, and stopped following the ${following} resource${following === 1 ? '' : 's'} it had announced` : '';
  const text = `:no_bell: ${userMention(actor)} stopped watching ${watchScope(scope)}${stopped}.`;
  return {
    text: `${userMention(actor)} stopped watching ${plainScope(scope)}${stopped}.`,
    blocks: [section(text), context(`Project ${project(scope.projectName)}`)],
  };
}

export function notWatchingMessage(scope: Pick<WatchScope, 'projectName' | 'sessionId'>): SlackMessage {
  const text = `:warning: This channel does not watch ${watchScope(scope)}. \`/video watches\` lists what it watches.`;
  return { text: stripMrkdwn(text), blocks: [section(text)] };
}

/** `/video watches`: everything the channel is watching, as on the dashboard (message: 50 blocks at most). */
export function watchesMessage(watches: readonly Watch[], now: number): SlackMessage {
  if (watches.length === 0) {
    const text =
      'This channel watches nothing right now. What is started from Slack is followed in its card’s thread; `/video watch [session|all]` follows what starts elsewhere.';
    return { text, blocks: [section(text)] };
  }
  const blocks = dashboardBlocks({ watches, now, maxBlocks: 45 }).slice(1);
  return {
    text: `This channel watches ${watches.length} thing${watches.length === 1 ? '' : 's'}.`,
    blocks: [section('*This channel is watching*'), ...blocks],
  };
}
