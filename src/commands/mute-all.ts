/**
 * `/mute-all [session] [--except id,id]` — mutes everyone at once (reversible, so no question:
 * see src/views/confirmation-policy.ts); the channel's notice carries an Undo
 * (src/actions/undo.ts). The shortcut's form and cards of older versions mute through
 * `muteEveryone` too.
 */
import { z } from 'zod';
import { type ChangeResult, performChange } from '../interaction/change';
import type { Interaction } from '../interaction/interaction';
import { MUTE_VIA, type MuteVia, noteEveryoneMuted } from '../interaction/mute-state';
import { resolveSession } from '../interaction/session-ref';
import { replyEphemeral } from '../slack/respond';
import { warning } from '../views/blocks';
import { type SessionRef, muteAllNotice } from '../views/notices';
import { defineCommand, defineSubcommand } from './command';
import { identifier, projectFlag, projectName, sessionRef } from './grammar';

/** Stream IDs the notice's Undo can carry in its value (2000 characters). */
export const MAX_EXCLUDED_STREAMS = 40;

/** Mutes everyone in `s` but `excluded`; the notice (with Undo) goes to `channelId`, default the interaction's channel. */
export async function muteEveryone(
  ix: Interaction,
  s: SessionRef,
  excluded: readonly string[],
  options: { channelId?: string; quiet?: boolean; via?: MuteVia } = {},
): Promise<ChangeResult<void>> {
  const done = await performChange(
    ix,
    {
      command: '/mute-all',
      target: `session ${s.sessionId}${excluded.length > 0 ? ` except ${excluded.join(',')}` : ''}`,
      projectName: s.projectName,
      errorContext: { operation: 'mute-all', sessionId: s.sessionId },
      call: (video) => video.moderation.muteAll(s.sessionId, { active: true, ...(excluded.length > 0 ? { excludedStreamIds: [...excluded] } : {}) }),
      notice: () => muteAllNotice(ix.userId, s, excluded),
      ...(options.channelId ? { channelId: options.channelId } : {}),
    },
    { quiet: options.quiet ?? false },
  );
  if (done.ok) await noteEveryoneMuted(ix, s, excluded, options.via ?? MUTE_VIA.muteAll);
  return done;
}

export const muteAllCommand = defineCommand({
  command: '/mute-all',
  summary: 'Mute everyone in a session at once (the notice has Undo), optionally sparing some streams.',
  subcommands: [
    defineSubcommand({
      summary: 'Mute everyone in a session',
      role: 'moderator',
      args: {
        positionals: [{ name: 'session', label: 'session', optional: true, description: 'session ID or alias; default: the channel’s session' }],
        flags: [
          { name: 'except', kind: 'list', valueLabel: 'stream-id,stream-id', description: 'streams not to mute (the speaker, say); repeatable' },
          projectFlag,
        ],
        schema: z.object({
          session: sessionRef.optional(),
          except: z
            .array(identifier('a stream ID'))
            .max(MAX_EXCLUDED_STREAMS, { error: `spare at most ${MAX_EXCLUDED_STREAMS} streams` })
            .optional(),
          project: projectName.optional(),
        }),
        examples: ['', 'standup --except 8b732909-0a06-46a2-8ea8-074e64d43422'],
      },
      target: (args) => args.session ?? '',
      async run(ix, args) {
        const resolved = await resolveSession(ix.services, ix, args.session, args.project);
        if (!resolved.ok) return replyEphemeral(ix, warning(resolved.message));
        await muteEveryone(ix, resolved.value, [...new Set(args.except ?? [])]);
      },
    }),
  ],
});
