/**
 * `/kick <who> [session]` — a participant's name (any case, a unique prefix), a stream ID or a
 * connection ID. Answers with ONE confirmation card naming the person and the session
 * ("Disconnect Bob (camera, screen) from standup?") whose Disconnect acts at once
 * (src/actions/console.ts). A name or stream is turned into its connection through Advanced
 * Insights; when that cannot be had, the answer says what to paste instead.
 */
import { z } from 'zod';
import { replyEphemeral } from '../slack/respond';
import { warning } from '../views/blocks';
import { kickPersonCard } from '../views/people';
import { defineCommand, defineSubcommand } from './command';
import { projectFlag, projectName, sessionRef } from './grammar';
import { resolveSession } from '../interaction/session-ref';
import { asStream, findWhom, kickCardFor, streamsOfConnection } from './people';

export const kickCommand = defineCommand({
  command: '/kick',
  summary: 'Disconnect a participant from a session (after one confirmation), by name, stream ID or connection ID.',
  subcommands: [
    defineSubcommand({
      summary: 'Disconnect a participant',
      role: 'moderator',
      args: {
        positionals: [
          {
            name: 'who',
            label: 'who',
            description: 'a participant’s name (the start is enough), a stream ID (its publisher, found through Advanced Insights) or a connection ID',
          },
          { name: 'session', label: 'session', optional: true, description: 'session ID or alias; default: the channel’s session' },
        ],
        flags: [projectFlag],
        schema: z.object({
          who: z
            .string({ error: 'a name, stream ID or connection ID is missing' })
            .trim()
            .min(1, { error: 'say whom to disconnect' })
            .max(200, { error: 'a name or ID is at most 200 characters' }),
          session: sessionRef.optional(),
          project: projectName.optional(),
        }),
        examples: ['Bob', 'bob standup', 'e9f8c166-6c67-440d-994a-04fb6dfed007'],
      },
      target: (args) => args.who,
      async run(ix, args) {
        const resolved = await resolveSession(ix.services, ix, args.session, args.project);
        if (!resolved.ok) return replyEphemeral(ix, warning(resolved.message));
        const s = resolved.value;
        const whom = await findWhom(ix, s, args.who, 'kick');
        if (whom.type === 'person') return replyEphemeral(ix, await kickCardFor(ix, s, whom.streams.map(asStream)));
        // An ID no stream has is a connection: named by its streams when Insights knows them.
        if (whom.type === 'id') return replyEphemeral(ix, kickPersonCard(s, whom.id, await streamsOfConnection(ix, s, whom.id)));
      },
    }),
  ],
});
