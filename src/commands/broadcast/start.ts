/**
 * Starting a broadcast, shared by the typed `/broadcast start … --rtmp … --hls` and the start
 * form: through the change path (call, audit, the card in the channel, the poller following it
 * with the card model).
 */
import type { Broadcast, StartBroadcastOptions } from '../../api';
import { broadcastSnapshot } from '../../poller/snapshot';
import type { AnnounceResult } from '../../slack/respond';
import type { SlackMessage } from '../../views/blocks';
import { broadcastContext, broadcastKind } from '../../kinds/broadcast';
import { startModel } from '../../kinds';
import { broadcastErrorMessage } from '../../views/broadcast-errors';
import type { SessionRef } from '../../views/notices';
import type { Interaction } from '../../interaction/interaction';
import { performChange } from '../../interaction/change';
import { describeOutput } from './rtmp';

export const START_COMMAND = '/broadcast start';

/** The options of a start, without the session (chosen separately). */
export type BroadcastSettings = Omit<StartBroadcastOptions, 'sessionId'>;

export type StartOutcome = { ok: true; broadcast: Broadcast; announced: AnnounceResult } | { ok: false; error: unknown; message: SlackMessage };

function rtmpList(settings: BroadcastSettings) {
  const rtmp = settings.outputs.rtmp;
  return rtmp === undefined ? [] : Array.isArray(rtmp) ? rtmp : [rtmp];
}

/** What the audit records: the session and the outputs by id and host, never a stream key. */
export function startAuditTarget(sessionId: string, settings: BroadcastSettings): string {
  const outputs: string[] = [];
  const hls = settings.outputs.hls;
  if (hls) outputs.push(hls.dvr ? 'HLS (DVR)' : hls.lowLatency ? 'HLS (low latency)' : 'HLS');
  rtmpList(settings).forEach((o, i) => outputs.push(`RTMP ${describeOutput(o, i)}`));
  const tag = settings.multiBroadcastTag ? ` tag ${settings.multiBroadcastTag}` : '';
  return `session ${sessionId}${tag}: ${outputs.join(', ')}`.slice(0, 500);
}

/**
 * Starts the broadcast (or awaits `running`, a start already sent), then audits, posts the card
 * and tracks it. Failures come back as a message for the caller to show where it fits.
 */
export async function startBroadcast(ix: Interaction, s: SessionRef, settings: BroadcastSettings, running?: Promise<Broadcast>): Promise<StartOutcome> {
  const who = { startedBy: ix.userId, ...(s.alias ? { alias: s.alias } : {}), ...(settings.outputs.hls ? { hls: settings.outputs.hls } : {}) };
  const done = await performChange(
    ix,
    {
      command: START_COMMAND,
      target: startAuditTarget(s.sessionId, settings),
      projectName: s.projectName,
      call: (video) => running ?? video.broadcasts.start({ ...settings, sessionId: s.sessionId }),
      notice: (broadcast) =>
        broadcastKind.render({
          resourceId: broadcast.id,
          sessionId: broadcast.sessionId,
          projectName: s.projectName,
          state: broadcastSnapshot(broadcast, ix.services.clock()),
          context: broadcastContext(broadcast, who),
          actions: [],
          now: ix.services.clock(),
        }),
      failure: async (error) =>
        broadcastErrorMessage(error, {
          operation: 'start',
          project: s.projectName,
          sessionId: s.sessionId,
          ...(s.alias ? { alias: s.alias } : {}),
          ...(settings.multiBroadcastTag ? { tag: settings.multiBroadcastTag } : {}),
        }),
      track: (started) => ({
        kind: 'broadcast',
        resourceId: started.id,
        sessionId: started.sessionId,
        initialState: broadcastSnapshot(started, ix.services.clock()),
        card: startModel(broadcastContext(started, who)),
      }),
    },
    { quiet: true },
  );
  if (!done.ok) return { ok: false, error: done.error, message: done.message };
  const broadcast = done.result;
  return { ok: true, broadcast, announced: done.announced };
}
