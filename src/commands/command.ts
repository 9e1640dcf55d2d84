/**
 * What a slash command is made of: its grammar (see `grammar.ts`), the role each form needs,
 * and the handler that runs after the request was acknowledged.
 */
import type { z } from 'zod';
import type { RequiredRole } from '../rbac/roles';
import type { Interaction } from '../interaction/interaction';
import type { RespondFn } from '../slack/respond';
import { type ArgsGrammar, type CommandGrammar, type SubcommandGrammar, type Token, parseArgs } from './grammar';

/** A slash command after the ack: the text, and Bolt's `respond` bound to its response_url. */
export interface CommandInvocation extends Interaction {
  command: string;
  text: string;
  respond: RespondFn;
}

export interface SubcommandDef<S extends z.ZodType> {
  name?: string;
  summary: string;
  args: ArgsGrammar<S>;
  /** The role needed, fixed or depending on the arguments (e.g. reading vs changing). */
  role: RequiredRole | ((args: z.output<S>) => RequiredRole);
  /** How help describes the role when it depends on the arguments. */
  roleLabel?: string;
  /** A short description of the target for audit records of denials (e.g. the session ref). */
  target?: (args: z.output<S>) => string;
  run(ix: CommandInvocation, args: z.output<S>): Promise<void>;
}

export interface Prepared {
  role: RequiredRole;
  target: string;
  /** The project named with `--project`, if any: the first role check is made for it. */
  projectFlag?: string;
  /** The session named (an alias or an ID), if any: an alias's project is checked first when no `--project` is given. */
  sessionRef?: string;
  run(ix: CommandInvocation): Promise<void>;
}

export type PrepareResult = { ok: true; prepared: Prepared } | { ok: false; problem: string };

export interface Subcommand extends SubcommandGrammar {
  readonly roleLabel: string;
  /** Parses the words (pure); the result knows the role and runs the handler later. */
  prepare(tokens: readonly Token[]): PrepareResult;
}

export interface SlashCommand extends CommandGrammar {
  readonly subcommands: readonly Subcommand[];
}

/** The `--project` value and the session argument, when the form has them and they were given. */
function projectFlagOf(grammar: ArgsGrammar<z.ZodType>, args: unknown): { projectFlag?: string; sessionRef?: string } {
  if (!grammar.flags.some((flag) => flag.name === 'project')) return {};
  const { project, session } = (args ?? {}) as { project?: unknown; session?: unknown };
  return { ...(typeof project === 'string' && { projectFlag: project }), ...(typeof session === 'string' && { sessionRef: session }) };
}

export function defineSubcommand<S extends z.ZodType>(def: SubcommandDef<S>): Subcommand {
  const roleOf = typeof def.role === 'function' ? def.role : () => def.role as RequiredRole;
  return {
    name: def.name,
    summary: def.summary,
    args: def.args,
    roleLabel: def.roleLabel ?? (typeof def.role === 'string' ? def.role : 'depends on the arguments'),
    prepare(tokens) {
      const parsed = parseArgs(def.args, tokens);
      if (!parsed.ok) return parsed;
      const args = parsed.args;
      return {
        ok: true,
        prepared: {
          role: roleOf(args),
          target: def.target ? def.target(args) : '',
          ...projectFlagOf(def.args, args),
          run: (ix) => def.run(ix, args),
        },
      };
    },
  };
}

export function defineCommand(command: SlashCommand): SlashCommand {
  return command;
}
