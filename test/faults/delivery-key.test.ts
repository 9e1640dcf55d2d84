import { deliveryKey } from '../../src/slack/delivery-key';

const command = { command: '/record', text: 'start', team_id: 'T1', user_id: 'U1', trigger_id: 't.1', response_url: 'https://hooks/1' };
const click = {
  type: 'block_actions',
  team: { id: 'T1' },
  user: { id: 'U1' },
  trigger_id: 't.2',
  response_url: 'https://hooks/2',
  actions: [{ action_id: 'a', action_ts: '1.2', value: 'v' }],
};
const submission = {
  type: 'view_submission',
  team: { id: 'T1' },
  user: { id: 'U1' },
  trigger_id: 't.3',
  view: { id: 'V1', hash: 'h', state: { values: { b: { a: { value: 'x' } } } } },
};

describe('deliveryKey', () => {
  it.each([
    ['slash command', command, /^command:T1:[\w-]{43}$/],
    ['block action', click, /^action:T1:[\w-]{43}$/],
    ['view submission', submission, /^view:T1:[\w-]{43}$/],
    ['shortcut', { type: 'shortcut', team: { id: 'T1' }, trigger_id: 't.4' }, /^shortcut:T1:/],
  ])('%s: kind, team and digest', (_name, body, pattern) => {
    expect(deliveryKey(body as Record<string, unknown>)).toMatch(pattern);
  });

  it('is the same for the same payload parsed again (a retry)', () => {
    expect(deliveryKey(JSON.parse(JSON.stringify(click)))).toBe(deliveryKey(click));
  });

  it.each([
    ['another trigger (a second tap)', { ...click, trigger_id: 't.9' }],
    ['another response_url', { ...click, response_url: 'https://hooks/9' }],
    ['another user', { ...click, user: { id: 'U2' } }],
  ])('differs for %s', (_name, other) => {
    expect(deliveryKey(other)).not.toBe(deliveryKey(click));
  });

  it('differs for a resubmission of the same view with new values', () => {
    const again = { ...submission, trigger_id: 't.5', view: { ...submission.view, state: { values: { b: { a: { value: 'y' } } } } } };
    expect(deliveryKey(again)).not.toBe(deliveryKey(submission));
  });

  it.each([
    ['options (answered every time)', { type: 'block_suggestion', team: { id: 'T1' }, action_id: 'a', value: 'x' }],
    ['events', { type: 'event_callback', team_id: 'T1', event_id: 'Ev1' }],
  ])('none for %s', (_name, body) => {
    expect(deliveryKey(body as Record<string, unknown>)).toBeUndefined();
  });
});
