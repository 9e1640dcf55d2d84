/**
 * Every slash command, and the one listener shape they share:
 * parse (pure) → ack within Slack's 3 s (help and usage errors are the ack itself) → check the
 * role → run the handler, which answers through `respond` or posts in the channel.
 */
import type { App, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { noteOutcome } from '../request-context';
import type { Services } from '../services';
import type { Interaction } from '../interaction/interaction';
import { type RespondFn, replyEphemeral } from '../slack/respond';
import { slackFailureSentence } from '../slack/slack-failure';
import { type SlackMessage, warning } from '../views/blocks';
import { appHelp, commandHelp } from '../views/help';
import { usageMessage } from '../views/usage';
import { audioConnectCommand } from './audio-connect';
import { Denied, authorize, projectGate } from '../interaction/authorize';
import { currentPatience } from '../interaction/still-waiting';
import { readNoAnswerMessage } from '../views/still-waiting';
import { broadcastCommand } from './broadcast';
import { captionsCommand } from './captions';
import type { CommandInvocation, Prepared, SlashCommand } from './command';
import { dialCommand } from './dial';
import { dtmfCommand } from './dtmf';
import { selectSubcommand, usageProblem } from './grammar';
import { kickCommand } from './kick';
import { muteCommand } from './mute';
import { muteAllCommand } from './mute-all';
import { recordCommand } from './record';
import { renderCommand } from './render';
import { sessionCommand } from './session';
import { signalCommand } from './signal';
import { streamsCommand } from './streams';
import { unmuteAllCommand } from './unmute-all';
import { usageCommand } from './usage';
import { videoCommand } from './video';
import { videoAdminCommand } from './video-admin';

export const COMMANDS: readonly SlashCommand[] = [
  videoCommand,
  streamsCommand,
  muteCommand,
  muteAllCommand,
  unmuteAllCommand,
  kickCommand,
  signalCommand,
  sessionCommand,
  recordCommand,
  captionsCommand,
  renderCommand,
  dialCommand,
  dtmfCommand,
  audioConnectCommand,
  broadcastCommand,
  videoAdminCommand,
  usageCommand,
];

/** The slash commands the app registers (manifest.yml must declare exactly these). */
export const COMMAND_NAMES: readonly string[] = COMMANDS.map((c) => c.command);

type Ack = SlackCommandMiddlewareArgs['ack'];

function ephemeralAck(ack: Ack, message: SlackMessage): Promise<void> {
  return ack({ response_type: 'ephemeral', text: message.text, blocks: message.blocks as never });
}

/** `/video help [command]` names another command: `/video help mute` or `/video help /mute`. */
function helpTopic(text: string): SlashCommand | undefined {
  const word = text.trim().split(/\s+/)[1];
  if (!word) return undefined;
  const name = word.startsWith('/') ? word : `/${word}`;
  return COMMANDS.find((c) => c.command === name.toLowerCase());
}

/** What a command's text leads to before the ack: help or a usage error (`invalid`) is the ack itself; otherwise the prepared run. */
export type BeforeAck = { kind: 'answer'; message: SlackMessage; invalid: boolean } | { kind: 'run'; prepared: Prepared; label: string };

/** Parses a command's text (pure): the answer to ack with, or what to authorize and run. */
export function beforeAck(command: SlashCommand, text: string): BeforeAck {
  const selected = selectSubcommand(command, text);
  if (selected.kind === 'help') {
    if (command === videoCommand && !selected.subcommand) {
      const topic = helpTopic(text);
      return { kind: 'answer', message: topic ? commandHelp(topic) : appHelp(COMMANDS), invalid: false };
    }
    return { kind: 'answer', message: commandHelp(command, selected.subcommand), invalid: false };
  }
  if (selected.kind === 'usage') return { kind: 'answer', message: usageMessage(command.command, selected.problem), invalid: true };
  const sub = selected.subcommand;
  const prepared = sub.prepare(selected.tokens);
  if (!prepared.ok) return { kind: 'answer', message: usageMessage(command.command, usageProblem(command, sub, prepared.problem)), invalid: true };
  return { kind: 'run', prepared: prepared.prepared, label: sub.name ? `${command.command} ${sub.name}` : command.command };
}

export function commandListener(command: SlashCommand, services: Services) {
  return async ({ command: payload, ack, respond, client }: SlackCommandMiddlewareArgs & { client: App['client'] }): Promise<void> => {
    const parsed = beforeAck(command, payload.text);
    if (parsed.kind === 'answer') {
      if (parsed.invalid) noteOutcome('invalid');
      return ephemeralAck(ack, parsed.message);
    }
    const { prepared, label } = parsed;
    await ack();
    // Past the bound, a read offers to be typed again; a change never is (its answer is the change path's).
    if (prepared.role === 'viewer') currentPatience()?.sayAtBound((seconds) => readNoAnswerMessage(seconds, { command: command.command, text: payload.text }));

    const logger = services.logger.child({ command: command.command, user: payload.user_id, channel: payload.channel_id });
    const ix: CommandInvocation = {
      services,
      client,
      logger,
      teamId: payload.team_id,
      userId: payload.user_id,
      channelId: payload.channel_id,
      triggerId: payload.trigger_id,
      respond,
      command: command.command,
      text: payload.text,
    };
    await runInvocation(ix, prepared, label);
  };
}

/** The role check and the handler of a parsed command; a failure goes to the asker as one sentence. */
async function runInvocation(ix: CommandInvocation, prepared: Prepared, label: string): Promise<void> {
  const { services, logger } = ix;
  try {
    const attempt = { what: label, command: label, target: prepared.target };
    const projectName =
      prepared.projectFlag ??
      (prepared.sessionRef === undefined ? undefined : (await services.store.getAlias(ix.teamId, prepared.sessionRef.toLowerCase()))?.projectName);
    const allowed = await authorize(ix, prepared.role, { ...attempt, ...(projectName !== undefined && { projectName }) });
    if (!allowed) return;
    ix.gate = projectGate(ix, prepared.role, attempt);
    await prepared.run(ix);
  } catch (error) {
    if (error instanceof Denied) return;
    noteOutcome('error');
    const slackSaid = slackFailureSentence(error, `\`${label}\``);
    if (slackSaid) logger.warn('command ended on a Slack failure', { error });
    else logger.error('command failed', { error });
    await replyEphemeral(
      ix,
      warning(slackSaid ?? 'Something went wrong on our side; it was logged. Try again, or ask an admin to look at the vidops logs.'),
    ).catch((replyError: unknown) => logger.error('could not tell the user about a failure', { error: replyError }));
  }
}

/**
 * Types a command again for whoever clicked (the Check button of a read the video service did
 * not answer in time): the same parsing, role check — theirs, where they clicked — and handler.
 */
export async function typeAgain(ix: Interaction & { respond: RespondFn }, commandName: string, text: string): Promise<void> {
  const command = COMMANDS.find((c) => c.command === commandName);
  if (!command) {
    await replyEphemeral(ix, warning(`This button is from an older version of vidops; type the command again.`));
    return;
  }
  const parsed = beforeAck(command, text);
  if (parsed.kind === 'answer') {
    await replyEphemeral(ix, parsed.message);
    return;
  }
  // Check only reads: a command that needs more than a viewer could change something.
  if (parsed.prepared.role !== 'viewer') {
    await replyEphemeral(ix, warning(`Check only reads; type \`${parsed.label}\` again to run it.`));
    return;
  }
  await runInvocation({ ...ix, command: command.command, text }, parsed.prepared, parsed.label);
}

/**
 * One Bolt listener for every command, dispatching by name: Bolt runs each incoming request
 * through every registered listener's matchers before the right one acks, so one listener
 * instead of eight keeps that work off the ack path.
 */
export function register(app: App, services: Services): void {
  const listeners = new Map(COMMANDS.map((command) => [command.command, commandListener(command, services)]));
  // Every command, known or not: one the app does not serve (a forged or stale name) is
  // acknowledged and ignored rather than left for Bolt to time out.
  app.command(/[\s\S]*/, async (args) => {
    const listener = listeners.get(args.command.command);
    if (listener) await listener(args);
    else await args.ack();
  });
}
