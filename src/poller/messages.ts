/**
 * The words a channel sees for each transition: short thread replies in mrkdwn. Everything the
 * service or a user named (archive names, RTMP output ids, failure reasons) is escaped; RTMP
 * stream names and URLs are never part of a transition, so they cannot reach a message.
 */
import { code, escapeMrkdwn, userMention } from '../slack/mrkdwn';
import { KIND_NOUNS } from '../kinds';
import { stopReasonWords as composerStopReason } from '../kinds/composer';
import { stopReasonWords } from '../kinds/recording';
import { CONSOLE_EXPIRED_REPLY, participantText } from '../kinds/session-console';
import { EXPIRED_REPLY } from '../kinds/session-watch';
import { formatBytes, formatDuration } from '../views/format';
import type { WatchKind } from './snapshot';
import type { Severity, Transition, TransitionEvent } from './transitions';
import type { CardModel } from './watch';

const NOUNS = Object.fromEntries(Object.entries(KIND_NOUNS).map(([kind, nouns]) => [kind, nouns.one])) as Record<WatchKind, string>;

const ICONS: Record<Severity, string> = { info: '', warning: ':warning: ', error: ':x: ' };

const RTMP_OFFLINE_CAUSES = 'server unreachable, handshake or authentication error, rejected connection, unknown application or rejected stream name';

const HLS_MESSAGES: Record<string, string> = {
  ready: 'HLS ready: transcoders are up, waiting for the CDN',
  ended: 'HLS ended: the source stream ended',
  error: 'HLS failed with an error',
  connecting: 'HLS reconnecting',
};

/** Announcements of a watch on every session name the session; the others are in the session's thread. */
const inSession = (sessionId: string | undefined): string => (sessionId === undefined ? 'this session' : `session ${code(sessionId)}`);

const withDetail = (head: string, detail: string | undefined): string => (detail ? `${head}: ${detail}` : head);

function fileFacts(durationS: number, sizeBytes: number): string {
  return sizeBytes > 0 ? `${formatDuration(durationS)}, ${formatBytes(sizeBytes)}` : formatDuration(durationS);
}

function liveSummary(event: Extract<TransitionEvent, { type: 'broadcast-live' }>): string {
  const outputs: string[] = [];
  if (event.hls === 'live') outputs.push('HLS');
  if (event.rtmpLive > 0) {
    const all = event.rtmpLive === event.rtmpTotal;
    outputs.push(all && event.rtmpTotal === 1 ? 'RTMP' : all ? `all ${event.rtmpTotal} RTMP outputs` : `${event.rtmpLive} of ${event.rtmpTotal} RTMP outputs`);
  }
  const waitingHls = event.hls !== undefined && event.hls !== 'live' ? `; HLS ${escapeMrkdwn(event.hls)}` : '';
  return `Broadcast live on ${outputs.join(' and ')}${waitingHls}`;
}

/** "Bob, _unnamed_ `1a2b3c4d` and 3 more". */
function peopleList(streams: readonly { id: string; name?: string }[]): string {
  const shown = streams.slice(0, 5).map((s) => participantText(s, 60));
  return streams.length > 5 ? `${shown.join(', ')} and ${streams.length - 5} more` : shown.join(', ');
}

/** The sentence for one transition, e.g. "Recording available — 12 min, 84 MB". */
export function messageFor(transition: Transition): string {
  const event = transition.event;
  switch (event.type) {
    case 'archive-started':
      return 'Recording started';
    case 'archive-paused':
      return 'Recording paused: nobody is publishing';
    case 'archive-resumed':
      return 'Recording resumed';
    case 'archive-stopped':
      // The card's words for why ("on request", "everyone left the session").
      if (event.reason === 'user initiated') return `Recording stopped ${stopReasonWords(event.reason)}`;
      return withDetail('Recording stopped', event.reason && stopReasonWords(event.reason));
    case 'archive-available':
      return `Recording available — ${fileFacts(event.durationS, event.sizeBytes)}`;
    case 'archive-uploaded':
      return `Recording uploaded to the storage target — ${fileFacts(event.durationS, event.sizeBytes)}`;
    case 'archive-expired':
      return 'Recording expired: it can no longer be downloaded';
    case 'archive-failed':
      return 'Recording failed';
    case 'archive-deleted':
      return 'Recording deleted';
    case 'broadcast-live':
      return liveSummary(event);
    case 'broadcast-hls':
      return HLS_MESSAGES[event.status] ?? `HLS is now ${escapeMrkdwn(event.status)}`;
    case 'broadcast-rtmp': {
      const output = `RTMP output '${escapeMrkdwn(event.outputId)}'`;
      if (event.status === 'offline') return `${output} offline: ${RTMP_OFFLINE_CAUSES}`;
      if (event.status === 'error') return `${output} failed with an error`;
      if (event.status === 'connecting') return `${output} reconnecting`;
      return `${output} is now ${escapeMrkdwn(event.status)}`;
    }
    case 'broadcast-stopped':
      return withDetail('Broadcast stopped', event.maxDurationS === undefined ? undefined : `maximum duration reached (${formatDuration(event.maxDurationS)})`);
    case 'render-started':
      return 'Composer started';
    case 'render-stopped':
      return withDetail('Composer stopped', event.reason && composerStopReason(event.reason));
    case 'render-failed':
      return withDetail('Composer failed', event.reason && escapeMrkdwn(event.reason));
    case 'captions-ended':
      return `Live captions ended: maximum duration reached (${formatDuration(event.maxDurationS)})`;
    case 'sip-connected':
      return 'Phone call connected';
    case 'sip-ended':
      return event.neverConnected ? 'Phone call ended without connecting' : 'Phone call ended';
    case 'audio-ended':
      return 'Audio connection ended: none of its streams is left in the session';
    case 'discovered-archive':
      return `New recording started in ${inSession(event.sessionId)}${event.state.name ? `: “${escapeMrkdwn(event.state.name)}”` : ''} (${code(event.id)})`;
    case 'discovered-broadcast':
      return `New broadcast started in ${inSession(event.sessionId)} (${code(event.id)})`;
    case 'discovered-render':
      return `New composer started in ${inSession(event.sessionId)}${event.state.name ? `: “${escapeMrkdwn(event.state.name)}”` : ''} (${code(event.id)})`;
    case 'console-changed':
      return [
        ...(event.joined.length > 0 ? [`Joined: ${peopleList(event.joined)}`] : []),
        ...(event.left.length > 0 ? [`Left: ${peopleList(event.left)}`] : []),
      ].join(' · ');
    case 'console-ended':
      return `Everyone left${event.left.length > 0 ? ` (last: ${peopleList(event.left)})` : ''}; this console stopped updating`;
    case 'status-changed':
      return `${NOUNS[event.kind]} is now ${escapeMrkdwn(event.status)}`;
    case 'gone':
      return `${NOUNS[event.kind]} no longer exists on the service`;
    case 'watch-expired':
      if (event.kind === 'session-discovery') return EXPIRED_REPLY;
      if (event.kind === 'session-console') return CONSOLE_EXPIRED_REPLY;
      return withDetail(`Stopped watching this ${NOUNS[event.kind].toLowerCase()}`, event.lastStatus && `last status ${escapeMrkdwn(event.lastStatus)}`);
  }
}

/**
 * The thread reply: a severity icon, then the sentence. `label` names the resource when the
 * thread holds more than one (watches discovered in a session share its thread).
 */
export function replyText(transition: Transition, label?: string): string {
  const subject = label ? `${escapeMrkdwn(label)} · ` : '';
  return `${ICONS[transition.severity]}${subject}${messageFor(transition)}`;
}

/**
 * The thread reply for a watch: a failure mentions the person who started the resource (from the
 * card model stored with the watch), so the one who can act on it hears of it.
 */
export function replyFor(watch: { card?: CardModel }, transition: Transition, label?: string): string {
  const startedBy = (watch.card?.context as { startedBy?: unknown } | undefined)?.startedBy;
  const text = replyText(transition, label);
  return transition.severity === 'error' && typeof startedBy === 'string' ? `${text} · started by ${userMention(startedBy)}` : text;
}

/** Names a resource in a thread it shares with others: its name, else its kind and a short id. */
export function resourceLabel(kind: WatchKind, resourceId: string, name?: string): string {
  return name ?? `${NOUNS[kind]} ${resourceId.slice(0, 8)}`;
}
