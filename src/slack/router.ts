/**
 * Routing by id in one Bolt listener per kind of interaction.
 *
 * Bolt runs every incoming request through the matchers of every registered listener, so the
 * cost of each request (and the delay before the next ack) grows with the number of buttons,
 * modals and shortcuts the app has. `routeById(app)` returns the same App, except that
 * `action`, `view`, `shortcut` and `options` registrations by plain string id go into maps,
 * served by a single Bolt listener per kind that looks the handler up by `action_id` or
 * `callback_id`. Registrations by RegExp or constraint object, and everything else, reach Bolt
 * unchanged. Areas keep calling `app.action(ACTION.x, handler)` as usual.
 */
import type { App } from '@slack/bolt';

type Handler = (args: never) => unknown;
type Kind = 'action' | 'view' | 'shortcut' | 'options';

const ANY = /[\s\S]*/;

/** The id a request of each kind is routed by. */
const ROUTING_KEY: Record<Kind, (args: Record<string, unknown>) => unknown> = {
  action: (args) => (args.action as { action_id?: unknown } | undefined)?.action_id,
  view: (args) => (args.view as { callback_id?: unknown } | undefined)?.callback_id,
  shortcut: (args) => (args.shortcut as { callback_id?: unknown } | undefined)?.callback_id,
  options: (args) => (args.payload as { action_id?: unknown } | undefined)?.action_id,
};

export function routeById(app: App): App {
  const tables = new Map<Kind, Map<string, Handler[]>>();
  /** Constraints registered straight with Bolt (RegExp, constraint objects): their requests are theirs to ack. */
  const elsewhere = new Map<Kind, unknown[]>();
  const servedElsewhere = (kind: Kind, id: unknown): boolean =>
    (elsewhere.get(kind) ?? []).some(
      (constraint) => !(constraint instanceof RegExp) || (typeof id === 'string' && new RegExp(constraint.source, constraint.flags.replace('g', '')).test(id)),
    );

  const table = (kind: Kind): Map<string, Handler[]> => {
    let routes = tables.get(kind);
    if (routes) return routes;
    routes = new Map();
    tables.set(kind, routes);
    const found = routes;
    const dispatch = async (args: Record<string, unknown>): Promise<void> => {
      const id = ROUTING_KEY[kind](args);
      const handlers = typeof id === 'string' ? found.get(id) : undefined;
      if (!handlers) {
        // An id no listener knows (a stale message, a forged payload): acknowledged and ignored,
        // so Slack shows no error and Bolt does not wait out its 3 s for an ack.
        if (!servedElsewhere(kind, id)) await (args.ack as (() => Promise<void>) | undefined)?.();
        return;
      }
      await Promise.all(handlers.map((handler) => (handler as (a: unknown) => unknown)(args)));
    };
    const listener = dispatch as unknown as never;
    switch (kind) {
      case 'action':
        app.action(ANY, listener);
        break;
      case 'view':
        app.view({ callback_id: ANY, type: 'view_submission' }, listener);
        break;
      case 'shortcut':
        app.shortcut(ANY, listener);
        break;
      case 'options':
        app.options(ANY, listener);
        break;
    }
    return routes;
  };

  const route =
    (kind: Kind, original: (...args: unknown[]) => unknown) =>
    (constraint: unknown, ...listeners: unknown[]): unknown => {
      if (typeof constraint !== 'string' || listeners.length !== 1 || typeof listeners[0] !== 'function') {
        elsewhere.set(kind, [...(elsewhere.get(kind) ?? []), constraint]);
        return original(constraint, ...listeners);
      }
      const routes = table(kind);
      routes.set(constraint, [...(routes.get(constraint) ?? []), listeners[0] as Handler]);
      return undefined;
    };

  return new Proxy(app, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if ((property === 'action' || property === 'view' || property === 'shortcut' || property === 'options') && typeof value === 'function') {
        return route(property, (value as (...args: unknown[]) => unknown).bind(target));
      }
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
