/** `/unmute-all [session]` — turns the session's mute-everyone state off (already muted streams stay muted). */
import { z } from 'zod';
import { replyEphemeral } from '../slack/respond';
import { warning } from '../views/blocks';
import { type SessionRef, unmuteAllNotice } from '../views/notices';
import { defineCommand, defineSubcommand } from './command';
import { projectFlag, projectName, sessionRef } from './grammar';
import { type ChangeResult, performChange } from '../interaction/change';
import type { Interaction } from '../interaction/interaction';
import { MUTE_VIA, type MuteVia, noteMuteLifted } from '../interaction/mute-state';
import { resolveSession } from '../interaction/session-ref';

/** Lifts the session's mute state; also the Undo of a mute-everyone notice (src/actions/undo.ts). */
export async function unmuteEveryone(ix: Interaction, s: SessionRef, via: MuteVia = MUTE_VIA.unmuteAll): Promise<ChangeResult<void>> {
  const done = await performChange(ix, {
    command: '/unmute-all',
    target: `session ${s.sessionId}`,
    projectName: s.projectName,
    errorContext: { operation: 'unmute-all', sessionId: s.sessionId },
    call: (video) => video.moderation.muteAll(s.sessionId, { active: false }),
    notice: () => unmuteAllNotice(ix.userId, s),
  });
  if (done.ok) await noteMuteLifted(ix, s, via);
  return done;
}

export const unmuteAllCommand = defineCommand({
  command: '/unmute-all',
  summary: 'Stop muting everyone: new streams join unmuted; streams already muted stay muted.',
  subcommands: [
    defineSubcommand({
      summary: 'Turn off mute-everyone',
      role: 'moderator',
      args: {
        positionals: [{ name: 'session', label: 'session', optional: true, description: 'session ID or alias; default: the channel’s session' }],
        flags: [projectFlag],
        schema: z.object({ session: sessionRef.optional(), project: projectName.optional() }),
        examples: ['', 'standup'],
      },
      target: (args) => args.session ?? '',
      async run(ix, args) {
        const resolved = await resolveSession(ix.services, ix, args.session, args.project);
        if (!resolved.ok) return replyEphemeral(ix, warning(resolved.message));
        await unmuteEveryone(ix, resolved.value);
      },
    }),
  ],
});
