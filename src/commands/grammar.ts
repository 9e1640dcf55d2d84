/**
 * A small declarative grammar for slash commands.
 *
 * Each command declares its subcommands; each subcommand declares positionals (required or
 * optional, in order), `--flags` (boolean, valued, or list) and a zod schema that turns the raw
 * strings into typed arguments. Parsing is a pure function of the text Slack sends:
 *
 * - words are separated by whitespace; "…", '…' and Slack's smart quotes “…” / ‘…’ group words
 *   (a quote opens only at the start of a word or right after `=`, so "don't" stays one word);
 * - `--flag value` and `--flag=value`; list flags accept `a,b` and may repeat; `--` ends flags;
 * - Slack's entity encoding (`&amp;`, `&lt;`, `&gt;`) is decoded first;
 * - optional positionals are filled left to right with whatever the required ones leave over,
 *   so `/signal [session] <type> <data>` reads `/signal chat hi` and `/signal s1 chat hi`;
 *   a last positional marked `rest` takes all the words left over (`/usage last 30 days`).
 *
 * Usage problems come back as data (what was wrong, the usage line, a correct example); the
 * help texts are generated from the same declarations (see `src/views/help.ts`).
 */
import { z } from 'zod';
import { decodeSlackEntities } from '../slack/mrkdwn';

export interface PositionalSpec {
  /** Key in the raw argument object handed to the schema. */
  readonly name: string;
  /** How the usage line shows it, without brackets, e.g. `stream-id`. */
  readonly label: string;
  readonly description: string;
  readonly optional?: boolean;
  /** Last positional only: takes every word left over, joined by single spaces
   * (`/usage last 30 days`). */
  readonly rest?: boolean;
}

export type FlagKind = 'boolean' | 'value' | 'list';

export interface FlagSpec {
  /** As typed after `--`, e.g. `archive-name`; the raw key is its camelCase form. */
  readonly name: string;
  readonly kind: FlagKind;
  /** Shown in the usage line for valued flags, e.g. `connection-id`. */
  readonly valueLabel?: string;
  readonly description: string;
}

export interface ArgsGrammar<S extends z.ZodType = z.ZodType> {
  readonly positionals: readonly PositionalSpec[];
  readonly flags: readonly FlagSpec[];
  /** Validates `{[positional.name]: string, [camelCase(flag.name)]: boolean | string | string[]}`. */
  readonly schema: S;
  /** Correct argument texts (what follows the command and subcommand); the first is shown on errors. */
  readonly examples: readonly string[];
}

export interface SubcommandGrammar<S extends z.ZodType = z.ZodType> {
  /** Absent for the command's default form (`/mute <stream-id>`). */
  readonly name?: string;
  readonly summary: string;
  readonly args: ArgsGrammar<S>;
}

export interface CommandGrammar {
  /** With the slash, e.g. `/mute-all`. */
  readonly command: string;
  readonly summary: string;
  readonly subcommands: readonly SubcommandGrammar[];
}

export interface Token {
  readonly value: string;
  /** The word began with a quote: never a flag, never a subcommand. */
  readonly quoted: boolean;
}

export type TokenizeResult = { ok: true; tokens: Token[] } | { ok: false; problem: string };

export interface UsageProblem {
  /** One sentence: what was wrong. */
  readonly problem: string;
  /** The usage line of the subcommand concerned (or every subcommand's). */
  readonly usage: readonly string[];
  /** A correct example, the full command line. */
  readonly example: string;
}

export type ArgsResult<T> = { ok: true; args: T } | { ok: false; problem: string };

/** Quote characters that may open a quoted word, with the characters that may close it. */
const QUOTES: Readonly<Record<string, readonly string[]>> = {
  '"': ['"'],
  "'": ["'"],
  '“': ['”', '“', '"'],
  '”': ['”'],
  '‘': ['’', "'"],
  '’': ['’'],
  '„': ['“', '”'],
};

const HELP_WORDS = new Set(['help', '--help', '-h', '-?']);

export function tokenize(rawText: string): TokenizeResult {
  const text = decodeSlackEntities(rawText);
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (i >= text.length) break;
    let value = '';
    let quoted = false;
    let started = false;
    let endsWithEquals = false;
    while (i < text.length && !/\s/.test(text[i]!)) {
      const ch = text[i]!;
      const closers = QUOTES[ch];
      // Not value.endsWith('='): that flattens the growing string on every character, which made
      // a 100,000-character word take seconds.
      const mayOpen = !started || endsWithEquals;
      if (closers && mayOpen) {
        if (!started) quoted = true;
        started = true;
        i++;
        let closed = false;
        while (i < text.length) {
          const c = text[i]!;
          if (c === '\\' && ch === '"' && (text[i + 1] === '"' || text[i + 1] === '\\')) {
            value += text[i + 1];
            endsWithEquals = false;
            i += 2;
            continue;
          }
          if (closers.includes(c)) {
            closed = true;
            i++;
            break;
          }
          value += c;
          endsWithEquals = c === '=';
          i++;
        }
        if (!closed) return { ok: false, problem: `a quote (${ch}) is not closed; end the quoted text with ${closers[0]}` };
        continue;
      }
      started = true;
      value += ch;
      endsWithEquals = ch === '=';
      i++;
    }
    tokens.push({ value, quoted });
  }
  return { ok: true, tokens };
}

export function isHelpToken(token: Token | undefined): boolean {
  return token !== undefined && !token.quoted && HELP_WORDS.has(token.value.toLowerCase());
}

export function flagKey(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

function isFlagToken(token: Token): boolean {
  return !token.quoted && token.value.startsWith('--') && token.value.length > 2;
}

function positionalUsage(p: PositionalSpec): string {
  return p.optional ? `[${p.label}]` : `<${p.label}>`;
}

function flagUsage(f: FlagSpec): string {
  switch (f.kind) {
    case 'boolean':
      return `[--${f.name}]`;
    case 'value':
      return `[--${f.name} <${f.valueLabel ?? 'value'}>]`;
    case 'list':
      return `[--${f.name} <${f.valueLabel ?? 'a,b'}>]`;
  }
}

/** `/mute <stream-id> [session] [--project <name>]` */
export function usageLine(command: string, sub: SubcommandGrammar): string {
  const parts = [command];
  if (sub.name) parts.push(sub.name);
  for (const p of sub.args.positionals) parts.push(positionalUsage(p));
  for (const f of sub.args.flags) parts.push(flagUsage(f));
  return parts.join(' ');
}

/** The first example of a subcommand as a full command line. */
export function exampleLine(command: string, sub: SubcommandGrammar, index = 0): string {
  const example = sub.args.examples[index] ?? '';
  return [command, sub.name ?? '', example].filter((s) => s.length > 0).join(' ');
}

/** The Slack manifest's usage hint: the argument part of every form of the command. */
export function usageHint(grammar: CommandGrammar): string {
  const forms = grammar.subcommands
    .map((sub) => usageLine(grammar.command, sub).slice(grammar.command.length + 1))
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  // Every command takes `help`; commands made only of subcommands list it as one of them.
  const hasDefault = grammar.subcommands.some((sub) => sub.name === undefined);
  return (hasDefault ? forms : ['help', ...forms]).join(' | ');
}

function labelFor(args: ArgsGrammar, key: PropertyKey | undefined): string | undefined {
  if (typeof key !== 'string') return undefined;
  const positional = args.positionals.find((p) => p.name === key);
  if (positional) return `<${positional.label}>`;
  const flag = args.flags.find((f) => flagKey(f.name) === key);
  if (flag) return `--${flag.name}`;
  return undefined;
}

/** Parses the words of one subcommand into its typed arguments. */
export function parseArgs<S extends z.ZodType>(args: ArgsGrammar<S>, tokens: readonly Token[]): ArgsResult<z.output<S>> {
  const raw: Record<string, boolean | string | string[]> = {};
  const words: string[] = [];
  let flagsEnded = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (!flagsEnded && !token.quoted && token.value === '--') {
      flagsEnded = true;
      continue;
    }
    if (flagsEnded || !isFlagToken(token)) {
      words.push(token.value);
      continue;
    }
    const body = token.value.slice(2);
    const eq = body.indexOf('=');
    const name = (eq === -1 ? body : body.slice(0, eq)).toLowerCase();
    const inline = eq === -1 ? undefined : body.slice(eq + 1);
    const flag = args.flags.find((f) => f.name === name);
    if (!flag) {
      const known = args.flags.map((f) => f.name);
      const guess = closest(name, known);
      const problem =
        known.length === 0
          ? `this command takes no options, but --${echo(name)} was given`
          : `there is no option --${echo(name)}` + (guess ? `; did you mean --${guess}?` : `; options are ${known.map((k) => `--${k}`).join(', ')}`);
      return { ok: false, problem };
    }
    const key = flagKey(flag.name);
    if (flag.kind === 'boolean') {
      if (inline !== undefined) return { ok: false, problem: `--${flag.name} is a switch and takes no value (remove “=${echo(inline)}”)` };
      raw[key] = true;
      continue;
    }
    let value = inline;
    if (value === undefined) {
      const next = tokens[i + 1];
      if (next === undefined || isFlagToken(next)) {
        return { ok: false, problem: `--${flag.name} needs a value (${flag.valueLabel ?? 'value'})` };
      }
      value = next.value;
      i++;
    }
    if (flag.kind === 'value') {
      if (raw[key] !== undefined) return { ok: false, problem: `--${flag.name} is given twice; give it once` };
      raw[key] = value;
    } else {
      const items = value
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0);
      if (items.length === 0) return { ok: false, problem: `--${flag.name} needs at least one value (${flag.valueLabel ?? 'a,b'})` };
      const previous = raw[key];
      raw[key] = [...(Array.isArray(previous) ? previous : []), ...items];
    }
  }

  const last = args.positionals[args.positionals.length - 1];
  if (last?.rest && words.length > args.positionals.length) {
    const from = args.positionals.length - 1;
    words.splice(from, words.length - from, words.slice(from).join(' '));
  }
  const required = args.positionals.filter((p) => !p.optional);
  if (words.length < required.length) {
    const missing = required[words.length]!;
    return { ok: false, problem: `<${missing.label}> is missing (${missing.description})` };
  }
  if (words.length > args.positionals.length) {
    const extra = words[args.positionals.length]!;
    const hint = args.positionals.length === 0 ? 'this command takes no words' : 'put text with spaces in quotes';
    return { ok: false, problem: `too many words: “${echo(extra)}” is not expected (${hint})` };
  }
  let optionalLeft = words.length - required.length;
  let w = 0;
  for (const p of args.positionals) {
    if (p.optional) {
      if (optionalLeft === 0) continue;
      optionalLeft--;
    }
    raw[p.name] = words[w++]!;
  }

  const parsed = args.schema.safeParse(raw);
  if (parsed.success) return { ok: true, args: parsed.data };
  const issue = parsed.error.issues[0]!;
  const label = labelFor(args, issue.path[0]);
  return { ok: false, problem: label ? `${label}: ${issue.message}` : issue.message };
}

export type SelectResult<Sub extends SubcommandGrammar = SubcommandGrammar> =
  { kind: 'help'; subcommand?: Sub } | { kind: 'subcommand'; subcommand: Sub; tokens: Token[] } | { kind: 'usage'; problem: UsageProblem };

/** Picks the subcommand the words name (or the default form) and the words left for it. */
export function selectSubcommand<Sub extends SubcommandGrammar>(
  grammar: CommandGrammar & { readonly subcommands: readonly Sub[] },
  text: string,
): SelectResult<Sub> {
  const tokenized = tokenize(text);
  if (!tokenized.ok) return { kind: 'usage', problem: usageProblem(grammar, undefined, tokenized.problem) };
  const tokens = tokenized.tokens;
  const first = tokens[0];
  const subcommands: readonly Sub[] = grammar.subcommands;
  const named = subcommands.filter((s) => s.name !== undefined);
  const fallback = subcommands.find((s) => s.name === undefined);
  if (isHelpToken(first)) {
    const topic = tokens[1];
    const sub = topic && !topic.quoted ? named.find((s) => s.name === topic.value.toLowerCase()) : undefined;
    return sub ? { kind: 'help', subcommand: sub } : { kind: 'help' };
  }
  const sub = first && !first.quoted ? named.find((s) => s.name === first.value.toLowerCase()) : undefined;
  if (sub) {
    const rest = tokens.slice(1);
    if (isHelpToken(rest[0])) return { kind: 'help', subcommand: sub };
    return { kind: 'subcommand', subcommand: sub, tokens: rest };
  }
  if (fallback) return { kind: 'subcommand', subcommand: fallback, tokens };
  const names = named.map((s) => s.name!);
  let problem: string;
  if (!first) {
    problem = `say what to do: ${names.join(', ')}`;
  } else {
    const guess = closest(first.value.toLowerCase(), names);
    problem = `“${echo(first.value)}” is not a subcommand of ${grammar.command}` + (guess ? `; did you mean ${guess}?` : `; try ${names.join(', ')}`);
  }
  return { kind: 'usage', problem: usageProblem(grammar, undefined, problem) };
}

export function usageProblem(grammar: CommandGrammar, sub: SubcommandGrammar | undefined, problem: string): UsageProblem {
  const subs = sub ? [sub] : grammar.subcommands;
  const exampleSource = sub ?? grammar.subcommands.find((s) => s.args.examples.length > 0) ?? grammar.subcommands[0]!;
  return {
    problem,
    usage: subs.map((s) => usageLine(grammar.command, s)),
    example: exampleLine(grammar.command, exampleSource),
  };
}

export type CommandParse =
  | { kind: 'help'; subcommand?: SubcommandGrammar }
  | { kind: 'ok'; subcommand: SubcommandGrammar; args: unknown }
  | { kind: 'usage'; subcommand?: SubcommandGrammar; problem: UsageProblem };

/** Selects the subcommand and parses its arguments in one step. */
export function parseCommand(grammar: CommandGrammar, text: string): CommandParse {
  const selected = selectSubcommand(grammar, text);
  if (selected.kind !== 'subcommand') return selected;
  const result = parseArgs(selected.subcommand.args, selected.tokens);
  if (result.ok) return { kind: 'ok', subcommand: selected.subcommand, args: result.args };
  return { kind: 'usage', subcommand: selected.subcommand, problem: usageProblem(grammar, selected.subcommand, result.problem) };
}

/** Longest piece of a word a usage problem quotes back. */
const ECHO_MAX = 60;

/** A word as a usage problem quotes it: a pasted wall of text is shortened, not repeated whole. */
export function echo(word: string): string {
  if (word.length <= ECHO_MAX) return word;
  const cut = word.slice(0, ECHO_MAX - 1);
  const last = cut.charCodeAt(cut.length - 1);
  return (last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut) + '…';
}

/** The candidate within edit distance 2 (or a prefix match), if any. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (word.length >= 2 && candidate.startsWith(word)) return candidate;
    // The distance is at least the difference in length: no need to compare a pasted paragraph.
    if (Math.abs(word.length - candidate.length) > 2) continue;
    const d = editDistance(word, candidate);
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  return bestDistance <= 2 ? best : undefined;
}

function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_v, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = prev[j]!;
      prev[j] = Math.min(above + 1, prev[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return prev[b.length]!;
}

// ---------------------------------------------------------------------------------------------
// Argument types shared by the commands. Messages are written to follow "<label>: ".

/** An identifier as the video service issues them (session, stream, connection IDs). */
export function identifier(what: string): z.ZodString {
  return z
    .string({ error: `${what} is missing` })
    .min(1, { error: `${what} is empty` })
    .max(256, { error: `that is too long for ${what}` })
    .regex(/^[A-Za-z0-9_\-.:~=+/]+$/, { error: `that does not look like ${what} (letters, digits and - _ . ~ only)` });
}

/** A session reference: a session ID or an alias. */
export const sessionRef = identifier('a session ID or alias');

/** Alias names: short, lower-case, easy to type on a phone. */
export const aliasName = z
  .string()
  .min(1, { error: 'an alias cannot be empty' })
  .max(40, { error: 'an alias has at most 40 characters' })
  .regex(/^[a-z0-9][a-z0-9._-]*$/i, { error: 'an alias uses letters, digits, “.”, “-” and “_”, and starts with a letter or digit' })
  .transform((s) => s.toLowerCase());

/** The project flag shared by every command that talks to the video service. */
export const projectFlag: FlagSpec = {
  name: 'project',
  kind: 'value',
  valueLabel: 'name',
  description: 'the project to use instead of the channel’s (or the default) project',
};

export const projectName = z.string().min(1, { error: 'a project name is needed' }).max(100, { error: 'that project name is too long' });
