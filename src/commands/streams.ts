/**
 * `/streams [session] [--post]` — the session console: who is publishing, as people see them,
 * with what vidops muted, Mute and Kick per person, Mute everyone and Edit layout classes. It
 * answers privately; `--post` (or its "Post in channel" button) posts it in the channel as a
 * live card the poller keeps current (src/kinds/session-console.ts).
 */
import { z } from 'zod';
import { replyEphemeral } from '../slack/respond';
import { warning } from '../views/blocks';
import { defineCommand, defineSubcommand } from './command';
import { projectFlag, projectName, sessionRef } from './grammar';
import { resolveSession } from '../interaction/session-ref';
import { consoleNow, readStreams } from './people';
import { postConsole } from './post-console';

export const streamsCommand = defineCommand({
  command: '/streams',
  summary: 'The session console: who is publishing, what vidops muted, Mute / Kick / Mute everyone; `--post` shows it to the channel.',
  subcommands: [
    defineSubcommand({
      summary: 'Show the session console',
      role: 'viewer',
      args: {
        positionals: [{ name: 'session', label: 'session', optional: true, description: 'session ID or alias; default: the channel’s session' }],
        flags: [{ name: 'post', kind: 'boolean', description: 'post it in the channel as a card kept current for an hour' }, projectFlag],
        schema: z.object({ session: sessionRef.optional(), post: z.boolean().optional(), project: projectName.optional() }),
        examples: ['', 'standup', '--post', '2_MX40NzEyfn5-abc --project prod'],
      },
      target: (args) => args.session ?? '',
      async run(ix, args) {
        const resolved = await resolveSession(ix.services, ix, args.session, args.project);
        if (!resolved.ok) return replyEphemeral(ix, warning(resolved.message));
        const s = resolved.value;
        if (args.post) return postConsole(ix, s);
        const read = await readStreams(ix, s);
        if (!read.ok) return replyEphemeral(ix, read.message);
        await replyEphemeral(ix, (await consoleNow(ix, s, read.streams)).message);
      },
    }),
  ],
});
