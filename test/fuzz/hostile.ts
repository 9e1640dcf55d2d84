/**
 * fast-check arbitraries for text a hostile or careless user can put into a slash command or a
 * form field: arbitrary and full-unicode strings, graphemes, control characters, Slack's
 * mention and link syntax (raw and entity-encoded), quotes, JSON, huge strings, and words the
 * grammar reacts to (subcommand names, flags), mixed together.
 */
import fc from 'fast-check';

/**
 * One seed for every property in the fuzz suite: CI runs the same cases every time. Exploring
 * locally: `FUZZ_SEED=7 FUZZ_RUNS=3000 FUZZ_E2E_RUNS=200 npx jest test/fuzz --maxWorkers=1`.
 */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);

export const SLACK_SYNTAX = [
  '<!channel>',
  '<!here>',
  '<!everyone>',
  '<!subteam^S0123|@oncall>',
  '<!date^1700000000^{date}|Nov 14>',
  '<@U123>',
  '<@U123|bob>',
  '<@W0ADMIN>',
  '<#C123>',
  '<#C123|general>',
  '<https://evil.example|click>',
  '<https://evil.example>',
  '<mailto:ceo@example.com|ceo>',
  '<tel:+15551234567|call me>',
  '&lt;!channel&gt;',
  '&lt;@U123&gt;',
  '&lt;https://evil.example|click&gt;',
  '&amp;lt;!here&amp;gt;',
  '&lt;',
  '&gt;',
  '&amp;',
  '<',
  '>',
  '|',
] as const;

const PUNCTUATION = ['"', "'", '“', '”', '‘', '’', '„', '`', '```', '*', '_', '~', '\\', '=', ',', ':', ';', '--', '-', '-h', '-?', '/'];

const CONTROL = [
  '\u0000',
  '\u0007',
  '\u0008',
  '\u001b[31m',
  '\u007f',
  '\u0085',
  '\u200b',
  '\u200e',
  '\u202e',
  '\u2028',
  '\ufeff',
  '\ud800',
  '\udfff',
  '\r\n',
  '\r',
  '\n',
  '\t',
  '\u00a0',
  '\u3000',
];

const JSON_BITS = [
  '{"a":1}',
  '{"__proto__":{"polluted":true}}',
  '[1,2',
  'null',
  'true',
  '{"p":"prod","s":"x"}',
  '"\\u0000"',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
];

const HUGE = [
  'a'.repeat(100_000),
  '<!channel>'.repeat(10_000),
  '"' + 'x'.repeat(100_000),
  '--' + 'f'.repeat(100_000),
  '😀'.repeat(50_000),
  ' '.repeat(100_000) + 'x',
  '&lt;'.repeat(25_000),
  'w '.repeat(50_000),
];

/** A word a command's grammar reacts to: its subcommand names and flags, help words. */
export function grammarWords(subcommands: readonly string[], flags: readonly string[]): fc.Arbitrary<string> {
  const words = [
    ...subcommands,
    ...flags.flatMap((f) => [`--${f}`, `--${f}=`, `--${f.toUpperCase()}`]),
    'help',
    '--help',
    '--',
    '--project',
    'prod',
    'all',
    'clear',
  ];
  return fc.constantFrom(...words);
}

/** One hostile fragment. */
export function fragment(extraWords?: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const parts: fc.Arbitrary<string>[] = [
    fc.constantFrom(...SLACK_SYNTAX),
    fc.constantFrom(...PUNCTUATION),
    fc.constantFrom(...CONTROL),
    fc.constantFrom(...JSON_BITS),
    fc.string({ maxLength: 12 }),
    fc.string({ unit: 'grapheme', maxLength: 6 }),
    fc.string({ unit: 'binary', maxLength: 6 }),
    fc.stringMatching(/^[A-Za-z0-9_.:~=+/-]{1,24}$/),
  ];
  if (extraWords) parts.push(extraWords, extraWords);
  return fc.oneof(...parts);
}

/** Fuzzed text that prints shortened in a counterexample (a 100,000-character string would flood the report). */
export class Hostile {
  constructor(readonly text: string) {}

  [fc.toStringMethod](): string {
    const t = this.text;
    return t.length <= 300 ? JSON.stringify(t) : `${JSON.stringify(t.slice(0, 150))} + … (${t.length} characters) … + ${JSON.stringify(t.slice(-100))}`;
  }
}

/** Text made of hostile fragments, separated by spaces or not; now and then a huge one. */
export function hostileText(extraWords?: fc.Arbitrary<string>): fc.Arbitrary<Hostile> {
  const joined = fc
    .tuple(fc.array(fragment(extraWords), { maxLength: 10 }), fc.constantFrom(' ', '', '  ', '\t'))
    .map(([fragments, separator]) => fragments.join(separator));
  return fc
    .oneof(
      { weight: 12, arbitrary: joined },
      { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
      { weight: 2, arbitrary: fc.json() },
      { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...HUGE), joined).map(([huge, rest]) => `${rest} ${huge}`) },
    )
    .map((text) => new Hostile(text));
}

/**
 * A correct command line of the command (one of its grammar's examples) with one word replaced
 * by hostile text, quoted or not: it gets past the grammar more often, into the handlers that
 * echo names, aliases and data back.
 */
export function mutatedExample(command: { subcommands: readonly { name?: string; args: { examples: readonly string[] } }[] }): fc.Arbitrary<Hostile> {
  const lines = command.subcommands.flatMap((s) => s.args.examples.map((e) => [s.name ?? '', e].filter((p) => p.length > 0).join(' ')));
  const usable = lines.length > 0 ? lines : [''];
  const bad = fc.oneof(
    fragment(),
    fc.array(fragment(), { minLength: 1, maxLength: 4 }).map((f) => f.join(' ')),
  );
  return fc.tuple(fc.constantFrom(...usable), fc.nat(), bad, fc.boolean()).map(([line, at, text, quote]) => {
    const words = line.split(' ');
    const index = at % (words.length + 1);
    const replacement = quote ? `"${text.replace(/"/g, '')}"` : text;
    if (index === words.length) words.push(replacement);
    else words[index] = replacement;
    return new Hostile(words.join(' '));
  });
}
