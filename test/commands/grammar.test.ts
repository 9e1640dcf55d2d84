import { z } from 'zod';
import { COMMANDS } from '../../src/commands';
import { type ArgsGrammar, type CommandGrammar, flagKey, parseArgs, parseCommand, tokenize, usageHint, usageLine } from '../../src/commands/grammar';
import { muteCommand } from '../../src/commands/mute';
import { muteAllCommand } from '../../src/commands/mute-all';
import { sessionCommand } from '../../src/commands/session';
import { signalCommand } from '../../src/commands/signal';
import { videoCommand } from '../../src/commands/video';

describe('tokenize', () => {
  const cases: [string, string, { value: string; quoted: boolean }[]][] = [
    [
      'plain words',
      'a b  c',
      [
        { value: 'a', quoted: false },
        { value: 'b', quoted: false },
        { value: 'c', quoted: false },
      ],
    ],
    [
      'leading/trailing/nbsp whitespace',
      '  a\u00a0b\t',
      [
        { value: 'a', quoted: false },
        { value: 'b', quoted: false },
      ],
    ],
    [
      'double quotes',
      'say "hello world"',
      [
        { value: 'say', quoted: false },
        { value: 'hello world', quoted: true },
      ],
    ],
    [
      'single quotes',
      "say 'hello world'",
      [
        { value: 'say', quoted: false },
        { value: 'hello world', quoted: true },
      ],
    ],
    [
      'smart double quotes',
      'say “hello world”',
      [
        { value: 'say', quoted: false },
        { value: 'hello world', quoted: true },
      ],
    ],
    [
      'smart single quotes',
      'say ‘hello world’',
      [
        { value: 'say', quoted: false },
        { value: 'hello world', quoted: true },
      ],
    ],
    [
      'mismatched smart quotes from phones',
      'say “hello world“',
      [
        { value: 'say', quoted: false },
        { value: 'hello world', quoted: true },
      ],
    ],
    [
      'apostrophe inside a word',
      "don't stop",
      [
        { value: "don't", quoted: false },
        { value: 'stop', quoted: false },
      ],
    ],
    ['quote after = in a flag', '--name="Town hall"', [{ value: '--name=Town hall', quoted: false }]],
    [
      'escaped double quote',
      'say "a \\"b\\" c"',
      [
        { value: 'say', quoted: false },
        { value: 'a "b" c', quoted: true },
      ],
    ],
    [
      'empty quoted word',
      'x ""',
      [
        { value: 'x', quoted: false },
        { value: '', quoted: true },
      ],
    ],
    [
      'Slack entities decoded',
      'a &lt;b&gt; &amp; c',
      [
        { value: 'a', quoted: false },
        { value: '<b>', quoted: false },
        { value: '&', quoted: false },
        { value: 'c', quoted: false },
      ],
    ],
    ['empty text', '', []],
  ];
  it.each(cases)('%s', (_name, text, expected) => {
    expect(tokenize(text)).toEqual({ ok: true, tokens: expected });
  });

  it('reports an unclosed quote', () => {
    const result = tokenize('say "hello');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toMatch(/not closed/);
  });
});

describe('parseArgs', () => {
  const grammar: ArgsGrammar = {
    positionals: [
      { name: 'session', label: 'session', description: 's', optional: true },
      { name: 'type', label: 'type', description: 't' },
      { name: 'data', label: 'data', description: 'd' },
    ],
    flags: [
      { name: 'to', kind: 'value', valueLabel: 'connection-id', description: 'to' },
      { name: 'dry-run', kind: 'boolean', description: 'x' },
      { name: 'except', kind: 'list', description: 'e' },
    ],
    schema: z.object({
      session: z.string().optional(),
      type: z.string(),
      data: z.string(),
      to: z.string().optional(),
      dryRun: z.boolean().optional(),
      except: z.array(z.string()).optional(),
    }),
    examples: ['chat hi'],
  };
  const run = (text: string) => {
    const t = tokenize(text);
    if (!t.ok) throw new Error(t.problem);
    return parseArgs(grammar, t.tokens);
  };

  const ok: [string, Record<string, unknown>][] = [
    ['chat hi', { type: 'chat', data: 'hi' }],
    ['s1 chat hi', { session: 's1', type: 'chat', data: 'hi' }],
    ['chat "hello world"', { type: 'chat', data: 'hello world' }],
    ['--to c1 chat hi', { to: 'c1', type: 'chat', data: 'hi' }],
    ['chat hi --to=c1', { to: 'c1', type: 'chat', data: 'hi' }],
    ['chat --to c1 hi', { to: 'c1', type: 'chat', data: 'hi' }],
    ['chat hi --dry-run', { type: 'chat', data: 'hi', dryRun: true }],
    ['chat hi --except a,b --except c', { type: 'chat', data: 'hi', except: ['a', 'b', 'c'] }],
    ['chat hi --except " a , b "', { type: 'chat', data: 'hi', except: ['a', 'b'] }],
    ['chat hi --TO c1', { type: 'chat', data: 'hi', to: 'c1' }],
    ['chat -- --not-a-flag', { type: 'chat', data: '--not-a-flag' }],
    ['chat "--quoted"', { type: 'chat', data: '--quoted' }],
    ['chat -5', { type: 'chat', data: '-5' }],
  ];
  it.each(ok)('parses %j', (text, expected) => {
    expect(run(text)).toEqual({ ok: true, args: expected });
  });

  const bad: [string, RegExp][] = [
    ['', /<type> is missing/],
    ['chat', /<data> is missing/],
    ['s1 chat hi extra', /too many words: “extra”.*quotes/],
    ['chat hi --nope', /no option --nope/],
    ['chat hi --t c1', /no option --t; did you mean --to\?/],
    ['chat hi --to', /--to needs a value \(connection-id\)/],
    ['chat hi --to --dry-run', /--to needs a value/],
    ['chat hi --to a --to b', /--to is given twice/],
    ['chat hi --dry-run=yes', /--dry-run is a switch and takes no value/],
    ['chat hi --except ,', /--except needs at least one value/],
  ];
  it.each(bad)('rejects %j', (text, problem) => {
    const result = run(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toMatch(problem);
  });

  it('names the argument a schema problem is about', () => {
    const strict: ArgsGrammar = {
      ...grammar,
      schema: z.object({ type: z.string().max(3, { error: 'too long' }), data: z.string(), session: z.string().optional() }),
    };
    const t = tokenize('chatter hi');
    if (!t.ok) throw new Error();
    expect(parseArgs(strict, t.tokens)).toEqual({ ok: false, problem: '<type>: too long' });
  });
});

describe('the commands’ grammars', () => {
  const cases: [CommandGrammar, string, Record<string, unknown>][] = [
    [muteCommand, '8b73-aa', { who: '8b73-aa' }],
    [muteCommand, 'Bob standup --project prod', { who: 'Bob', session: 'standup', project: 'prod' }],
    [muteAllCommand, '', {}],
    [muteAllCommand, 'standup --except s1,s2', { session: 'standup', except: ['s1', 's2'] }],
    [muteAllCommand, '--except=s1 --except s2', { except: ['s1', 's2'] }],
    [signalCommand, 'chat “Recording starts”', { type: 'chat', data: 'Recording starts' }],
    [signalCommand, 'standup --to c1 layout focus', { session: 'standup', to: 'c1', type: 'layout', data: 'focus' }],
    [sessionCommand, 'create', {}],
    [sessionCommand, 'create Standup --use', { alias: 'standup', use: true }],
    [
      sessionCommand,
      'create th --archive always --archive-name "Town hall" --archive-resolution 1280x720 --e2ee --location 10.1.2.3',
      { alias: 'th', archive: 'always', archiveName: 'Town hall', archiveResolution: '1280x720', e2ee: true, location: '10.1.2.3' },
    ],
    [sessionCommand, 'create p2p --relayed', { alias: 'p2p', relayed: true }],
    [videoCommand, 'alias standup 2_MX40abcdefghij', { name: 'standup', sessionId: '2_MX40abcdefghij' }],
    [videoCommand, 'use --project prod', { project: 'prod' }],
    [videoCommand, 'use', {}],
    [videoCommand, 'audit --limit 5', { limit: 5 }],
    [videoCommand, 'AUDIT', {}],
  ];
  it.each(cases.map(([g, text, args]) => [g.command, text, g, args] as const))('%s %j', (_name, text, grammar, args) => {
    const parsed = parseCommand(grammar, text);
    expect(parsed.kind).toBe('ok');
    if (parsed.kind === 'ok') expect(parsed.args).toEqual(args);
  });

  const usage: [CommandGrammar, string, RegExp][] = [
    [muteCommand, '', /<who> is missing/],
    [muteCommand, 'a b c', /too many words/],
    [muteCommand, `${'x'.repeat(201)}`, /<who>: a name or ID is at most 200 characters/],
    [muteAllCommand, '--except', /--except needs a value \(stream-id,stream-id\)/],
    [signalCommand, 'chat hello world extra', /too many words/],
    [sessionCommand, '', /say what to do: create/],
    [sessionCommand, 'crate', /“crate” is not a subcommand of \/session; did you mean create\?/],
    [sessionCommand, 'create --archive-name x', /--archive-name: applies only with `--archive always`/],
    [sessionCommand, 'create --archive sometimes', /--archive: use `always`/],
    [sessionCommand, 'create --archive always --archive-resolution 4k', /--archive-resolution: use one of 640x480/],
    [sessionCommand, 'create --archive always --relayed', /--relayed: a relayed session cannot be archived/],
    [sessionCommand, 'create "bad alias!"', /<alias>: an alias uses letters/],
    [videoCommand, 'audit --limit 500', /--limit: at most 50/],
    [videoCommand, 'audit --limit many', /--limit: give a whole number/],
    [videoCommand, 'alias standup', /<session-id> is missing/],
  ];
  it.each(usage.map(([g, text, problem]) => [g.command, text, g, problem] as const))('%s %j is a usage error', (_name, text, grammar, problem) => {
    const parsed = parseCommand(grammar, text);
    expect(parsed.kind).toBe('usage');
    if (parsed.kind === 'usage') {
      expect(parsed.problem.problem).toMatch(problem);
      expect(parsed.problem.usage.length).toBeGreaterThan(0);
      expect(parsed.problem.example.startsWith(grammar.command)).toBe(true);
    }
  });

  it('gives every usage error a correct example: the example itself parses', () => {
    for (const command of COMMANDS) {
      for (const sub of command.subcommands) {
        for (const example of sub.args.examples) {
          const text = [sub.name ?? '', example].filter(Boolean).join(' ');
          const parsed = parseCommand(command, text);
          expect({ command: command.command, text, kind: parsed.kind }).toEqual({ command: command.command, text, kind: 'ok' });
        }
      }
    }
  });

  it.each([
    ['help', undefined],
    ['--help', undefined],
    ['HELP', undefined],
    ['create help', 'create'],
    ['help create', 'create'],
  ])('%j asks for help', (text, sub) => {
    const parsed = parseCommand(sessionCommand, text);
    expect(parsed.kind).toBe('help');
    if (parsed.kind === 'help') expect(parsed.subcommand?.name).toBe(sub);
  });

  it('keeps each schema’s keys and the declared positionals and flags in step', () => {
    for (const command of COMMANDS) {
      for (const sub of command.subcommands) {
        const declared = [...sub.args.positionals.map((p) => p.name), ...sub.args.flags.map((f) => flagKey(f.name))].sort();
        const schema = sub.args.schema as unknown as { shape?: Record<string, unknown>; def?: { in?: { shape?: Record<string, unknown> } } };
        const shape = schema.shape ?? schema.def?.in?.shape;
        expect({ command: command.command, sub: sub.name, keys: Object.keys(shape ?? {}).sort() }).toEqual({
          command: command.command,
          sub: sub.name,
          keys: declared,
        });
      }
    }
  });

  it('writes usage lines and manifest hints from the grammar', () => {
    expect(usageLine('/mute', muteCommand.subcommands[0]!)).toBe('/mute <who> [session] [--project <name>]');
    expect(usageHint(muteAllCommand)).toBe('[session] [--except <stream-id,stream-id>] [--project <name>]');
    expect(usageHint(videoCommand).startsWith('help | alias <name> <session-id>')).toBe(true);
  });
});
