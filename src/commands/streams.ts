/** `/streams [session]` — who is publishing, with Mute and "Edit layout classes" buttons (ephemeral). */
import { z } from 'zod';
import { VideoNotFoundError } from '../api';
import { replyEphemeral } from '../slack/respond';
import { warning } from '../views/blocks';
import { errorMessage } from '../views/errors';
import { streamsMessage } from '../views/streams';
import { defineCommand, defineSubcommand } from './command';
import { projectFlag, projectName, sessionRef } from './grammar';
import { resolveSession } from '../interaction/session-ref';

export const streamsCommand = defineCommand({
  command: '/streams',
  summary: 'List the streams of a session, with buttons to mute one or edit layout classes.',
  subcommands: [
    defineSubcommand({
      summary: 'List the streams of a session',
      role: 'viewer',
      args: {
        positionals: [{ name: 'session', label: 'session', optional: true, description: 'session ID or alias; default: the channel’s session' }],
        flags: [projectFlag],
        schema: z.object({ session: sessionRef.optional(), project: projectName.optional() }),
        examples: ['', 'standup', '2_MX40NzEyfn5-abc --project prod'],
      },
      target: (args) => args.session ?? '',
      async run(ix, args) {
        const resolved = await resolveSession(ix.services, ix, args.session, args.project);
        if (!resolved.ok) return replyEphemeral(ix, warning(resolved.message));
        const s = resolved.value;
        try {
          const page = await ix.services.projects.client(s.projectName).streams.list(s.sessionId);
          await replyEphemeral(ix, streamsMessage(s, page.items));
        } catch (error) {
          if (error instanceof VideoNotFoundError) {
            await replyEphemeral(ix, streamsMessage(s, []));
            return;
          }
          ix.logger.warn('listing streams failed', { error });
          await replyEphemeral(ix, errorMessage(error, { operation: 'list-streams', project: s.projectName, sessionId: s.sessionId }));
        }
      },
    }),
  ],
});
