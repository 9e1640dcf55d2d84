/**
 * `/broadcast start|stop|list|show|layout|add|remove` — live streaming of a session to HLS and
 * up to five RTMP destinations. Starting posts a card in the channel that the poller keeps up
 * to date; RTMP stream keys are never shown, audited or logged.
 *
 * The parts live in `./broadcast/`: the typed start and its values, the start flow shared with
 * the form (`src/actions/broadcast.ts`), and the commands that act on a running broadcast.
 */
import { defineCommand } from './command';
import { manageSubcommands } from './broadcast/manage';
import { startSubcommand } from './broadcast/start-command';

export const broadcastCommand = defineCommand({
  command: '/broadcast',
  summary: 'Broadcast a session live (HLS and up to five RTMP outputs), change it, stop it.',
  subcommands: [startSubcommand, ...manageSubcommands],
});
