/**
 * `/mute-all [session] [--except id,id]` — answers with a confirmation card (who will be muted);
 * its red button, once confirmed, mutes everyone (see `src/actions/confirmations.ts`).
 */
import { z } from 'zod';
import { VideoNotFoundError } from '../api';
import { replyEphemeral } from '../slack/respond';
import { warning } from '../views/blocks';
import { muteAllConfirmCard } from '../views/confirm';
import { defineCommand, defineSubcommand } from './command';
import { identifier, projectFlag, projectName, sessionRef } from './grammar';
import { resolveSession } from '../interaction/session-ref';

/** Stream IDs a mute-all card can carry in its button (2000 characters). */
export const MAX_EXCLUDED_STREAMS = 40;

export const muteAllCommand = defineCommand({
  command: '/mute-all',
  summary: 'Mute everyone in a session (after a confirmation), optionally sparing some streams.',
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
        const s = resolved.value;
        const excluded = [...new Set(args.except ?? [])];
        let publishing: number | undefined;
        try {
          const page = await ix.services.projects.client(s.projectName).streams.list(s.sessionId);
          publishing = page.items.filter((stream) => !excluded.includes(stream.id)).length;
        } catch (error) {
          // The count only informs the card; the mute itself reports real problems.
          if (error instanceof VideoNotFoundError) publishing = 0;
          else ix.logger.info('could not count the streams before muting', { error });
        }
        await replyEphemeral(ix, muteAllConfirmCard(s, excluded, publishing));
      },
    }),
  ],
});
