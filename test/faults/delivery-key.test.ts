import { deliveryKey } from '../../src/slack/delivery-key';

describe('deliveryKey', () => {
  it.each([
    ['slash command: team and trigger', { command: '/record', team_id: 'T1', trigger_id: 't.1' }, 'command:T1:t.1'],
    ['slash command without trigger', { command: '/record', team_id: 'T1' }, undefined],
    ['block action: trigger', { type: 'block_actions', team: { id: 'T1' }, trigger_id: 't.2', actions: [{ action_id: 'a', action_ts: '1.2' }] }, 'action:T1:t.2'],
    ['block action without trigger: user, action and its ts', { type: 'block_actions', team: { id: 'T1' }, user: { id: 'U1' }, actions: [{ action_id: 'a', action_ts: '1.2' }] }, 'action:T1:U1:a:1.2'],
    ['view submission: view and trigger', { type: 'view_submission', team: { id: 'T1' }, trigger_id: 't.3', view: { id: 'V1', hash: 'h' } }, 'view:T1:V1:t.3'],
    ['shortcut', { type: 'shortcut', team: { id: 'T1' }, trigger_id: 't.4' }, 'shortcut:T1:t.4'],
    ['options are answered every time', { type: 'block_suggestion', team: { id: 'T1' }, action_id: 'a', value: 'x' }, undefined],
    ['events are not deduplicated', { type: 'event_callback', team_id: 'T1', event_id: 'Ev1' }, undefined],
  ])('%s', (_name, body, expected) => {
    expect(deliveryKey(body as Record<string, unknown>)).toBe(expected);
  });

  it('gives a resubmission of the same view (new trigger) a new key', () => {
    const first = deliveryKey({ type: 'view_submission', team: { id: 'T1' }, trigger_id: 't.1', view: { id: 'V1', hash: 'h' } });
    const again = deliveryKey({ type: 'view_submission', team: { id: 'T1' }, trigger_id: 't.2', view: { id: 'V1', hash: 'h' } });
    expect(first).not.toBe(again);
  });
});
