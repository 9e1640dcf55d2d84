/** `/signal [session] [--to <connection-id>] <type> <data>` — send a signal to everyone or one connection. */
import { z } from 'zod';
import { replyEphemeral } from '../slack/respond';
import { warning } from '../views/blocks';
import { signalNotice } from '../views/notices';
import { defineCommand, defineSubcommand } from './command';
import { identifier, projectFlag, projectName, sessionRef } from './grammar';
import { performChange } from '../interaction/change';
import { resolveSession } from '../interaction/session-ref';

export const signalCommand = defineCommand({
  command: '/signal',
  summary: 'Send a signal (type and data) to every client of a session, or to one connection.',
  subcommands: [
    defineSubcommand({
      summary: 'Send a signal',
      role: 'moderator',
      args: {
        positionals: [
          { name: 'session', label: 'session', optional: true, description: 'session ID or alias; default: the channel’s session' },
          { name: 'type', label: 'type', description: 'signal type the clients listen for (at most 128 bytes)' },
          { name: 'data', label: 'data', description: 'the payload, in quotes when it has spaces (at most 8 kB)' },
        ],
        flags: [{ name: 'to', kind: 'value', valueLabel: 'connection-id', description: 'send to this connection only' }, projectFlag],
        schema: z.object({
          session: sessionRef.optional(),
          type: z.string().min(1, { error: 'the signal type cannot be empty' }),
          data: z.string(),
          to: identifier('a connection ID').optional(),
          project: projectName.optional(),
        }),
        examples: ['chat "Recording starts in one minute"', 'standup --to e9f8c166-6c67-440d-994a-04fb6dfed007 layout focus'],
      },
      target: (args) => (args.to ? `connection ${args.to}` : (args.session ?? '')),
      async run(ix, args) {
        const resolved = await resolveSession(ix.services, ix, args.session, args.project);
        if (!resolved.ok) return replyEphemeral(ix, warning(resolved.message));
        const s = resolved.value;
        const signal = { type: args.type, data: args.data };
        await performChange(ix, {
          command: '/signal',
          target: `${args.to ? `connection ${args.to}` : 'everyone'} in session ${s.sessionId} (type ${args.type.slice(0, 128)})`,
          projectName: s.projectName,
          errorContext: { operation: 'signal', sessionId: s.sessionId, connectionId: args.to },
          call: (video) => (args.to ? video.signals.sendToConnection(s.sessionId, args.to, signal) : video.signals.sendToAll(s.sessionId, signal)),
          notice: () => signalNotice(ix.userId, s, { ...signal, to: args.to }),
        });
      },
    }),
  ],
});
