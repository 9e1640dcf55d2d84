/**
 * One Patience (still-waiting.ts) per command, button, form and shortcut: every listener
 * registered through the returned App runs with it, and its `respond` is the Patience's, so every
 * answer to the asker — whichever handler gives it — can replace the waiting line.
 */
import type { App } from '@slack/bolt';
import type { Services } from '../services';
import type { RespondFn } from '../slack/respond';
import { answeredElsewhereMessage, readNoAnswerMessage } from '../views/still-waiting';
import { type ReplyMode, Patience, runPatiently } from './still-waiting';

type Listener = (args: never) => unknown;
type Kind = 'command' | 'action' | 'view' | 'shortcut';
const KINDS = new Set<string>(['command', 'action', 'view', 'shortcut']);

interface ListenerArgs {
  respond?: RespondFn;
  body?: { container?: { is_ephemeral?: boolean } };
}

function patienceFor(kind: Kind, args: ListenerArgs, services: Services): Patience {
  // A button's response_url replaces the message it is on: the asker's own ephemeral message may
  // become the waiting line; a card in the channel may not.
  const mode: ReplyMode = kind !== 'action' ? 'replace' : args.body?.container?.is_ephemeral === true ? 'replace-source' : 'append';
  return new Patience({
    settings: services.patience,
    ...(typeof args.respond === 'function' && { respond: args.respond }),
    mode,
    logger: services.logger,
    // A read command offers to type it again (commands/index.ts says so once it knows the role).
    atBound: (seconds) => readNoAnswerMessage(seconds),
  });
}

export function withPatience(app: App, services: Services): App {
  const wrap =
    (kind: Kind, listener: Listener) =>
    async (args: ListenerArgs): Promise<unknown> => {
      const patience = patienceFor(kind, args, services);
      patience.start();
      try {
        return await runPatiently(patience, () => (listener as (a: unknown) => unknown)(patience.respond ? { ...args, respond: patience.respond } : args));
      } finally {
        await patience.finish(answeredElsewhereMessage());
      }
    };
  return new Proxy(app, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const bound = (value as (...args: unknown[]) => unknown).bind(target);
      if (typeof property !== 'string' || !KINDS.has(property)) return bound;
      return (...args: unknown[]) => bound(...args.map((arg, i) => (i > 0 && typeof arg === 'function' ? wrap(property as Kind, arg as Listener) : arg)));
    },
  });
}
