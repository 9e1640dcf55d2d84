/** `/broadcast start` without outputs: opens the start form, the named (or channel's) session pre-selected. */
import { replyEphemeral } from '../../slack/respond';
import { openForm } from '../../slack/slack-failure';
import { type PlainTextOption, option, warning } from '../../views/blocks';
import { broadcastStartModal } from '../../views/broadcast-modal';
import type { CommandInvocation } from '../command';
import { encodeSessionOption, resolveSession } from '../../interaction/session-ref';

function shortId(sessionId: string): string {
  return sessionId.length > 24 ? `${sessionId.slice(0, 10)}…${sessionId.slice(-10)}` : sessionId;
}

export async function openStartModal(ix: CommandInvocation, sessionRef: string | undefined, projectFlag: string | undefined): Promise<void> {
  if (!ix.triggerId) return replyEphemeral(ix, warning('Slack sent no trigger to open the form with; type the outputs instead: `/broadcast start --hls`.'));
  let initialSession: PlainTextOption | undefined;
  const resolved = await resolveSession(ix.services, ix, sessionRef, projectFlag);
  if (resolved.ok) {
    const s = resolved.value;
    const value = encodeSessionOption(s.projectName, s.sessionId);
    if (value.length <= 150)
      initialSession = option(`${s.alias ?? shortId(s.sessionId)} (${s.projectName})`, value, s.alias ? shortId(s.sessionId) : undefined);
  } else if (sessionRef !== undefined) {
    // A session was named but cannot be used: say so rather than open a form without it.
    return replyEphemeral(ix, warning(resolved.message));
  }
  await openForm(ix.client, {
    trigger_id: ix.triggerId,
    view: broadcastStartModal({ metadata: { r: 1, ...(ix.channelId ? { c: ix.channelId } : {}) }, ...(initialSession ? { initialSession } : {}) }),
  });
}
