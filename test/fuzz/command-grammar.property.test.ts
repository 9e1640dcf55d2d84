/**
 * Every registered slash command's grammar fed hostile text (test/fuzz/hostile.ts), through
 * `beforeAck` — the same pure step the command listener takes before acking. Properties: it
 * never throws; it either answers (help or a usage error, the ack itself) or prepares a run with
 * a role and a target; and whatever it answers is valid Block Kit with no ping and no link the
 * user wrote. New commands in COMMANDS are fuzzed without touching this file.
 */
import fc from 'fast-check';
import { COMMANDS, beforeAck } from '../../src/commands';
import type { SlashCommand } from '../../src/commands/command';
import { ROLES } from '../../src/rbac/roles';
import { FUZZ_SEED, SLACK_SYNTAX, grammarWords, hostileText, mutatedExample } from './hostile';
import { activeSequences, unsafeMessage } from './safety';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

function wordsOf(command: SlashCommand): fc.Arbitrary<string> {
  const names = command.subcommands.flatMap((s) => (s.name ? [s.name] : []));
  const flags = command.subcommands.flatMap((s) => s.args.flags.map((f) => f.name));
  return grammarWords(names, flags);
}

/** What the app would do with this text, checked; returns the problems (empty when fine). */
function problemsWith(command: SlashCommand, text: string): string[] {
  const outcome = beforeAck(command, text);
  if (outcome.kind === 'answer') return unsafeMessage(outcome.message);
  const problems: string[] = [];
  if (!ROLES.includes(outcome.prepared.role)) problems.push(`role ${String(outcome.prepared.role)}`);
  if (typeof outcome.prepared.target !== 'string') problems.push('target is not a string');
  if (typeof outcome.prepared.run !== 'function') problems.push('nothing to run');
  return problems;
}

describe.each(COMMANDS.map((c) => [c.command, c] as const))('%s grammar under fuzzing', (_name, command) => {
  it('never throws, always answers or prepares a run, never pings or forges a link', () => {
    fc.assert(
      fc.property(fc.oneof(hostileText(wordsOf(command)), mutatedExample(command)), ({ text }) => {
        expect(problemsWith(command, text)).toEqual([]);
      }),
      { seed: FUZZ_SEED, numRuns: RUNS },
    );
  });

  it('handles every piece of Slack syntax after each subcommand name', () => {
    const heads = ['', ...command.subcommands.flatMap((s) => (s.name ? [s.name] : []))];
    for (const head of heads) {
      for (const syntax of SLACK_SYNTAX) {
        for (const text of [`${head} ${syntax}`, `${head} ${syntax} ${syntax}`, `${head} --project ${syntax}`, `${head} "${syntax}"`]) {
          expect({ text, problems: problemsWith(command, text) }).toEqual({ text, problems: [] });
        }
      }
    }
  });
});

describe('the safety check itself', () => {
  it('flags what it must flag', () => {
    expect(activeSequences('hi <!channel> and <@U1|x> in <#C1> see <https://evil.example|click> or <mailto:a@b.c>')).toHaveLength(5);
    expect(activeSequences('&lt;!channel&gt; `code` <not a link')).toEqual([]);
    expect(unsafeMessage({ text: 'Usage report', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '<!here>' } }] })).toEqual([
      'active sequence <!here>',
    ]);
    expect(unsafeMessage({ text: 'Usage report', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'y'.repeat(3001) } }] })).toHaveLength(1);
  });
});
