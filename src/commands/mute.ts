/**
 * `/mute <who> [session]` — force-mute a participant's audio at once: a stream name (any case, a
 * unique prefix), a stream ID or a connection ID. An ambiguous name gets a picker; the channel
 * is told who did it, and the session's consoles show it.
 */
import { z } from 'zod';
import { replyEphemeral } from '../slack/respond';
import { warning } from '../views/blocks';
import { defineCommand, defineSubcommand } from './command';
import { projectFlag, projectName, sessionRef } from './grammar';
import { MUTE_VIA } from '../interaction/mute-state';
import { resolveSession } from '../interaction/session-ref';
import { findWhom, muteById, muteOne } from './people';

export const muteCommand = defineCommand({
  command: '/mute',
  summary: 'Mute a participant (their audio), by name, stream ID or connection ID.',
  subcommands: [
    defineSubcommand({
      summary: 'Mute a participant',
      role: 'moderator',
      args: {
        positionals: [
          { name: 'who', label: 'who', description: 'a participant’s name (the start is enough), a stream ID or a connection ID (`/streams` lists them)' },
          { name: 'session', label: 'session', optional: true, description: 'session ID or alias; default: the channel’s session' },
        ],
        flags: [projectFlag],
        schema: z.object({
          who: z
            .string({ error: 'a name, stream ID or connection ID is missing' })
            .trim()
            .min(1, { error: 'say whom to mute' })
            .max(200, { error: 'a name or ID is at most 200 characters' }),
          session: sessionRef.optional(),
          project: projectName.optional(),
        }),
        examples: ['Bob', 'bob standup', '8b732909-0a06-46a2-8ea8-074e64d43422'],
      },
      target: (args) => args.who,
      async run(ix, args) {
        const resolved = await resolveSession(ix.services, ix, args.session, args.project);
        if (!resolved.ok) return replyEphemeral(ix, warning(resolved.message));
        const s = resolved.value;
        const whom = await findWhom(ix, s, args.who, 'mute');
        if (whom.type === 'id') return muteById(ix, s, whom.id);
        if (whom.type !== 'person') return;
        for (const stream of whom.streams) await muteOne(ix, s, stream.streamId, MUTE_VIA.command, stream.name);
      },
    }),
  ],
});
