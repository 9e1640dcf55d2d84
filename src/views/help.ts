/** Help texts generated from the command grammars: `/x help` and `/video help`. */
import { type CommandGrammar, type SubcommandGrammar, exampleLine, usageLine } from '../commands/grammar';
import { escapeMrkdwn } from '../slack/mrkdwn';
import { type KnownBlock, type SlackMessage, LIMITS, context, divider, header, section } from './blocks';

export interface HelpSubcommand extends SubcommandGrammar {
  /** Who may use it, e.g. `moderator`. */
  readonly roleLabel: string;
}

export interface HelpCommand extends CommandGrammar {
  readonly subcommands: readonly HelpSubcommand[];
}

function subcommandText(command: string, sub: HelpSubcommand): string {
  const lines = [`\`${escapeMrkdwn(usageLine(command, sub))}\``, `${escapeMrkdwn(sub.summary)} _(${sub.roleLabel})_`];
  for (const p of sub.args.positionals) {
    lines.push(`• \`${p.optional ? `[${p.label}]` : `<${p.label}>`}\` ${escapeMrkdwn(p.description)}`);
  }
  for (const f of sub.args.flags) {
    const value = f.kind === 'boolean' ? '' : ` <${f.valueLabel ?? 'value'}>`;
    lines.push(`• \`--${f.name}${value}\` ${escapeMrkdwn(f.description)}`);
  }
  sub.args.examples.forEach((_e, i) => lines.push(`_e.g._ \`${escapeMrkdwn(exampleLine(command, sub, i))}\``));
  return lines.join('\n');
}

/** Help for one command (all its forms), or for one subcommand. */
export function commandHelp(command: HelpCommand, only?: SubcommandGrammar): SlackMessage {
  const subs = only ? command.subcommands.filter((s) => s === only) : command.subcommands;
  const blocks: KnownBlock[] = [header(`${command.command} — ${command.summary}`)];
  for (const sub of subs) blocks.push(section(subcommandText(command.command, sub)));
  blocks.push(context('Sessions: a session ID, an alias (`/video alias`), or the channel’s default (`/video use`). `/video help` lists every command.'));
  return { text: `${command.command}: ${command.summary}`, blocks: blocks.slice(0, LIMITS.messageBlocks) };
}

/** `/video help`: every command with its forms and roles. */
export function appHelp(commands: readonly HelpCommand[]): SlackMessage {
  const blocks: KnownBlock[] = [header('vidops — operate video sessions from Slack')];
  for (const command of commands) {
    const forms = command.subcommands
      .map((sub) => `\`${escapeMrkdwn(usageLine(command.command, sub))}\` — ${escapeMrkdwn(sub.summary)} _(${sub.roleLabel})_`)
      .join('\n');
    blocks.push(section(`*${command.command}* ${escapeMrkdwn(command.summary)}\n${forms}`));
  }
  blocks.push(divider());
  blocks.push(
    context(
      'Add `help` to any command for details and examples (`/mute help`). Sessions: a session ID, an alias, or the channel’s default. Roles: viewer < moderator < admin.',
    ),
  );
  return { text: 'vidops commands', blocks: blocks.slice(0, LIMITS.messageBlocks) };
}
