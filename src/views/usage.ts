/** A usage error: what was wrong, the usage line, a correct example. */
import type { UsageProblem } from '../commands/grammar';
import { escapeAndTruncate, escapeMrkdwn } from '../slack/mrkdwn';
import { LIMITS, type SlackMessage, context, section } from './blocks';

export function usageMessage(command: string, problem: UsageProblem): SlackMessage {
  const usage = problem.usage.map((u) => `\`${escapeMrkdwn(u)}\``).join('\n');
  return {
    text: `${command}: ${escapeAndTruncate(problem.problem, LIMITS.messageText - command.length - 2)}`,
    blocks: [
      section(`:warning: ${escapeMrkdwn(capitalize(problem.problem))}.`.replace(/([.?!])\.$/, '$1')),
      section(`*Usage*\n${usage}\n*Example*\n\`${escapeMrkdwn(problem.example)}\``),
      context(`\`${command} help\` explains every option.`),
    ],
  };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
