/** `/mute <stream-id> [session]` — force-mute one stream's audio; the channel is told who did it. */
import { z } from 'zod';
import { replyEphemeral } from '../slack/respond';
import { warning } from '../views/blocks';
import { muteStreamNotice } from '../views/notices';
import { defineCommand, defineSubcommand } from './command';
import { identifier, projectFlag, projectName, sessionRef } from './grammar';
import { performChange } from '../interaction/change';
import { resolveSession } from '../interaction/session-ref';

export const muteCommand = defineCommand({
  command: '/mute',
  summary: 'Mute one stream (its audio).',
  subcommands: [
    defineSubcommand({
      summary: 'Mute one stream',
      role: 'moderator',
      args: {
        positionals: [
          { name: 'streamId', label: 'stream-id', description: 'the stream to mute (`/streams` lists them)' },
          { name: 'session', label: 'session', optional: true, description: 'session ID or alias; default: the channel’s session' },
        ],
        flags: [projectFlag],
        schema: z.object({ streamId: identifier('a stream ID'), session: sessionRef.optional(), project: projectName.optional() }),
        examples: ['8b732909-0a06-46a2-8ea8-074e64d43422', '8b732909-0a06-46a2-8ea8-074e64d43422 standup'],
      },
      target: (args) => `stream ${args.streamId}`,
      async run(ix, args) {
        const resolved = await resolveSession(ix.services, ix, args.session, args.project);
        if (!resolved.ok) return replyEphemeral(ix, warning(resolved.message));
        const s = resolved.value;
        await performChange(ix, {
          command: '/mute',
          target: `stream ${args.streamId} in session ${s.sessionId}`,
          projectName: s.projectName,
          errorContext: { operation: 'mute-stream', sessionId: s.sessionId, streamId: args.streamId },
          call: (video) => video.moderation.muteStream(s.sessionId, args.streamId),
          notice: () => muteStreamNotice(ix.userId, s, args.streamId),
        });
      },
    }),
  ],
});
