/** `/kick <connection-id> [session]` — answers with a confirmation card; the confirmed button disconnects. */
import { z } from 'zod';
import { replyEphemeral } from '../slack/respond';
import { warning } from '../views/blocks';
import { defineCommand, defineSubcommand } from './command';
import { identifier, projectFlag, projectName, sessionRef } from './grammar';
import { resolveSession } from '../interaction/session-ref';
import { kickCard } from './usage/resolve-connection';

export const kickCommand = defineCommand({
  command: '/kick',
  summary: 'Disconnect a participant from a session (after a confirmation).',
  subcommands: [
    defineSubcommand({
      summary: 'Disconnect a connection',
      role: 'moderator',
      args: {
        positionals: [
          {
            name: 'connectionId',
            label: 'connection-id',
            description: 'the connection to drop, or a stream ID to drop its publisher (found through Advanced Insights)',
          },
          { name: 'session', label: 'session', optional: true, description: 'session ID or alias; default: the channel’s session' },
        ],
        flags: [projectFlag],
        schema: z.object({ connectionId: identifier('a connection ID'), session: sessionRef.optional(), project: projectName.optional() }),
        examples: ['e9f8c166-6c67-440d-994a-04fb6dfed007', 'e9f8c166-6c67-440d-994a-04fb6dfed007 standup'],
      },
      target: (args) => `connection ${args.connectionId}`,
      async run(ix, args) {
        const resolved = await resolveSession(ix.services, ix, args.session, args.project);
        if (!resolved.ok) return replyEphemeral(ix, warning(resolved.message));
        // A stream ID (as `/streams` shows) is read as the connection publishing it.
        await replyEphemeral(ix, await kickCard(ix, resolved.value, args.connectionId));
      },
    }),
  ],
});
