import type { App } from '@slack/bolt';
import { routeById } from '../../src/slack/router';

function fakeApp() {
  const registered: { kind: string; constraint: unknown; listener: (args: unknown) => Promise<void> }[] = [];
  const record =
    (kind: string) =>
    (constraint: unknown, ...listeners: ((args: unknown) => Promise<void>)[]) => {
      registered.push({ kind, constraint, listener: listeners[listeners.length - 1]! });
    };
  const app = { action: record('action'), view: record('view'), shortcut: record('shortcut'), options: record('options'), command: record('command') };
  return { app: app as unknown as App, registered };
}

describe('routeById', () => {
  it('registers one Bolt listener per kind and dispatches by id', async () => {
    const { app, registered } = fakeApp();
    const routed = routeById(app);
    const seen: string[] = [];
    routed.action('a', async () => void seen.push('a'));
    routed.action('b', async () => void seen.push('b'));
    routed.action('b', async () => void seen.push('b2'));
    routed.view('modal', async () => void seen.push('modal'));
    routed.shortcut('sc', async () => void seen.push('sc'));
    routed.options('pick', async () => void seen.push('pick'));
    expect(registered.map((r) => r.kind)).toEqual(['action', 'view', 'shortcut', 'options']);
    expect(registered[1]!.constraint).toEqual({ callback_id: expect.any(RegExp), type: 'view_submission' });

    await registered[0]!.listener({ action: { action_id: 'b' } });
    await registered[0]!.listener({ action: { action_id: 'unknown' } });
    await registered[1]!.listener({ view: { callback_id: 'modal' } });
    await registered[2]!.listener({ shortcut: { callback_id: 'sc' } });
    await registered[3]!.listener({ payload: { action_id: 'pick' } });
    expect(seen).toEqual(['b', 'b2', 'modal', 'sc', 'pick']);
  });

  it('passes RegExp and constraint-object registrations, and other methods, straight to Bolt', () => {
    const { app, registered } = fakeApp();
    const routed = routeById(app);
    const handler = async () => undefined;
    routed.action(/^x/, handler);
    routed.view({ callback_id: 'm', type: 'view_closed' }, handler);
    routed.command('/x', handler);
    expect(registered).toEqual([
      { kind: 'action', constraint: /^x/, listener: handler },
      { kind: 'view', constraint: { callback_id: 'm', type: 'view_closed' }, listener: handler },
      { kind: 'command', constraint: '/x', listener: handler },
    ]);
  });

  it('acknowledges an id no listener knows, but leaves ids a RegExp listener serves to that listener', async () => {
    const { app, registered } = fakeApp();
    const routed = routeById(app);
    routed.action('known', async () => undefined);
    routed.action(/^vidops\.key\./, async () => undefined);
    const acks: string[] = [];
    const click = (id: string) => registered[0]!.listener({ action: { action_id: id }, ack: async () => void acks.push(id) });
    await click('forged.id');
    await click('vidops.key.5');
    expect(acks).toEqual(['forged.id']);
  });
});
