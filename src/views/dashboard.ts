/**
 * What the workspace is watching, as the App Home dashboard shows it, and the one-line summary
 * of a watched resource on it.
 * Pure: watches in, blocks out. Names and statuses from the service are escaped.
 */
import type { Watch, WatchKind } from '../poller/watch';
import { KIND_NOUNS } from '../kinds';
import { discoveryNouns, watchScope } from '../kinds/session-watch';
import {
  type ArchiveSnapshot,
  type AudioSnapshot,
  type BroadcastSnapshot,
  type CaptionsSnapshot,
  type ConsoleSnapshot,
  type DiscoverySnapshot,
  GONE,
  type RenderSnapshot,
  type SipSnapshot,
  type Snapshot,
  discoveryKinds,
} from '../poller/snapshot';
import { formatBytes, formatDuration } from './format';
import { channelMention, code, escapeAndTruncate, escapeMrkdwn } from '../slack/mrkdwn';
import { type Button, type KnownBlock, LIMITS, actions, context, header, section } from './blocks';

/** A watched resource in one line: what it is, where it stands, and a few facts. */
export interface WatchSummary {
  icon: string;
  /** mrkdwn, escaped: “Board review” or `a1b2c3d4`. */
  title: string;
  /** Plain status word, escaped. */
  status: string;
  /** mrkdwn facts, escaped: "12 min", "HLS live", "RTMP 'yt' offline". */
  facts: string[];
}

const STATUS_ICONS: Record<string, string> = {
  started: ':red_circle:',
  live: ':red_circle:',
  active: ':large_green_circle:',
  connected: ':large_green_circle:',
  watching: ':eyes:',
  starting: ':hourglass_flowing_sand:',
  dialing: ':hourglass_flowing_sand:',
  waiting: ':hourglass_flowing_sand:',
  paused: ':double_vertical_bar:',
  stopped: ':black_square_for_stop:',
  ended: ':black_square_for_stop:',
  available: ':white_check_mark:',
  uploaded: ':white_check_mark:',
  expired: ':hourglass:',
  failed: ':x:',
  deleted: ':wastebasket:',
  [GONE]: ':grey_question:',
};

const shortId = (id: string): string => (id.length > 12 ? `${id.slice(0, 8)}…` : id);

function named(name: string | undefined, id: string): string {
  return name ? `“${escapeAndTruncate(name, 80)}”` : code(shortId(id));
}

function broadcastFacts(state: BroadcastSnapshot): string[] {
  const facts: string[] = [];
  if (state.hls !== undefined) facts.push(`HLS ${escapeMrkdwn(state.hls)}`);
  const outputs = Object.entries(state.rtmp);
  for (const [id, status] of outputs.slice(0, 5)) facts.push(`RTMP '${escapeAndTruncate(id, 40)}' ${escapeMrkdwn(status)}`);
  if (outputs.length > 5) facts.push(`${outputs.length - 5} more RTMP outputs`);
  return facts;
}

/** The summary of one watch from its last known state. */
export function summarize(watch: Pick<Watch, 'kind' | 'resourceId' | 'sessionId' | 'projectName'>, state: Snapshot | undefined, now: number): WatchSummary {
  const status = state?.status ?? 'unknown';
  const icon = STATUS_ICONS[status] ?? ':white_circle:';
  const base = { icon, status: escapeMrkdwn(status) };
  if (status === GONE) return { ...base, title: code(shortId(watch.resourceId)), facts: ['no longer on the service'] };
  switch (watch.kind) {
    case 'archive': {
      const s = state as ArchiveSnapshot | undefined;
      const facts: string[] = [];
      if (s && s.durationS > 0) facts.push(formatDuration(s.durationS));
      else if (s && (s.status === 'started' || s.status === 'paused')) facts.push(`for ${formatDuration((now - s.createdAt) / 1000)}`);
      if (s && s.sizeBytes > 0) facts.push(formatBytes(s.sizeBytes));
      if (s?.reason && s.reason !== 'user initiated') facts.push(escapeAndTruncate(s.reason, 80));
      return { ...base, title: named(s?.name, watch.resourceId), facts };
    }
    case 'broadcast': {
      const s = state as BroadcastSnapshot | undefined;
      const facts = s ? broadcastFacts(s) : [];
      if (s && s.status === 'started') facts.unshift(`for ${formatDuration((now - s.createdAt) / 1000)}`);
      return { ...base, title: code(shortId(watch.resourceId)), facts };
    }
    case 'render': {
      const s = state as RenderSnapshot | undefined;
      return { ...base, title: named(s?.name, watch.resourceId), facts: s?.reason ? [escapeAndTruncate(s.reason, 80)] : [] };
    }
    case 'captions': {
      const s = state as CaptionsSnapshot | undefined;
      const facts = s && s.status === 'active' ? [`until <!date^${Math.floor((s.startedAt + s.maxDurationS * 1000) / 1000)}^{time}|the maximum duration>`] : [];
      return { ...base, title: code(shortId(watch.resourceId)), facts };
    }
    case 'sip': {
      const s = state as SipSnapshot | undefined;
      return { ...base, title: code(shortId(watch.resourceId)), facts: s?.neverConnected ? ['never connected'] : [] };
    }
    case 'audio': {
      const s = state as AudioSnapshot | undefined;
      return { ...base, title: code(shortId(watch.resourceId)), facts: s?.streamIds ? [`${s.streamIds.length} streams`] : ['all streams'] };
    }
    case 'session-discovery': {
      const s = state as DiscoverySnapshot | undefined;
      return { ...base, title: watchScope(watch), facts: [`new ${discoveryNouns(discoveryKinds(s))}`] };
    }
    case 'session-console': {
      const s = state as ConsoleSnapshot | undefined;
      const people = s?.streams.length ?? 0;
      return { ...base, title: `console of ${code(shortId(watch.sessionId))}`, facts: [people === 1 ? '1 participant' : `${people} participants`] };
    }
  }
}

/** "🔴 “Board review” · started · 12 min". */
export function summaryLine(summary: WatchSummary): string {
  return [`${summary.icon} ${summary.title}`, summary.status, ...summary.facts].join(' · ');
}

/** Buttons for a watched resource (the same action ids as its card); none when it has no actions. */
export type WatchButtons = (watch: Watch) => Button[];

export interface DashboardData {
  watches: readonly Watch[];
  now: number;
  buttons?: WatchButtons;
  /** Blocks the dashboard may use at most (the Home tab holds 100 in all). */
  maxBlocks?: number;
}

/** Order of the groups: what is live first. */
const DASHBOARD_KINDS: readonly WatchKind[] = ['archive', 'broadcast', 'render', 'captions', 'sip', 'audio', 'session-discovery'];
/** Items shown one per block (with their buttons) in each group; the rest share one line list. */
const ITEMS_WITH_BUTTONS = 8;
const MAX_LISTED = 25;

/**
 * The dashboard: a header, then per kind a count and its items, newest first. An item with
 * buttons gets its own section (one button as its accessory, several in an actions block);
 * the others share a list; long groups end with "and N more".
 */
export function dashboardBlocks(data: DashboardData): KnownBlock[] {
  const maxBlocks = data.maxBlocks ?? 60;
  const blocks: KnownBlock[] = [header('Watching now')];
  if (data.watches.length === 0) {
    blocks.push(
      section(
        'Nothing is being watched. Recordings, broadcasts, composers, captions and calls started from Slack appear here; `/video watch` follows what starts elsewhere.',
      ),
    );
    return blocks;
  }
  for (const kind of DASHBOARD_KINDS) {
    const group = data.watches.filter((w) => w.kind === kind).sort((a, b) => b.createdAt - a.createdAt);
    if (group.length === 0) continue;
    const remaining = maxBlocks - blocks.length;
    if (remaining < 2) break;
    blocks.push(section(`*${KIND_NOUNS[kind].many}* (${group.length})`));
    const lines: string[] = [];
    let shown = 0;
    for (const watch of group) {
      const line = `${summaryLine(summarize(watch, watch.lastState, data.now))} · ${channelMention(watch.channelId)}`;
      const buttons = data.buttons?.(watch) ?? [];
      if (buttons.length > 0 && shown < ITEMS_WITH_BUTTONS && blocks.length < maxBlocks - 3) {
        if (buttons.length === 1) blocks.push(section(line, buttons[0]));
        else blocks.push(section(line), actions(buttons));
        shown += 1;
      } else if (lines.length < MAX_LISTED) {
        lines.push(line);
        shown += 1;
      }
    }
    let listed = lines.join('\n');
    if (shown < group.length) listed += `${listed ? '\n' : ''}_and ${group.length - shown} more_`;
    if (listed)
      blocks.push(section(listed.length > LIMITS.sectionText ? listed.slice(0, listed.lastIndexOf('\n', LIMITS.sectionText - 20)) + '\n_and more_' : listed));
  }
  blocks.push(context(`Updated <!date^${Math.floor(data.now / 1000)}^{date_short_pretty} {time}|just now>.`));
  return blocks.slice(0, maxBlocks);
}
