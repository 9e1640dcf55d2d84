/** What a Slack request is (for labels and logs), and the in-flight count the drain waits on. */
import { InFlight } from '../../src/slack/in-flight';
import { describeRequest } from '../../src/slack/instrument';

describe('describeRequest', () => {
  it.each([
    [
      { command: '/record', text: 'start' },
      { kind: 'command', name: '/record' },
    ],
    [
      { type: 'block_actions', actions: [{ action_id: 'record_stop' }] },
      { kind: 'block_actions', name: 'record_stop' },
    ],
    [
      { type: 'view_submission', view: { callback_id: 'broadcast_start' } },
      { kind: 'view_submission', name: 'broadcast_start' },
    ],
    [
      { type: 'shortcut', callback_id: 'mute_everyone' },
      { kind: 'shortcut', name: 'mute_everyone' },
    ],
    [
      { type: 'block_suggestion', action_id: 'session_picker' },
      { kind: 'options', name: 'session_picker' },
    ],
    [
      { type: 'event_callback', event: { type: 'app_home_opened' } },
      { kind: 'event', name: 'app_home_opened' },
    ],
    [
      { type: 'block_actions', actions: [] },
      { kind: 'block_actions', name: 'unknown' },
    ],
    [{}, { kind: 'unknown', name: 'unknown' }],
  ])('%j → %j', (body, expected) => {
    expect(describeRequest(body)).toEqual(expected);
  });
});

describe('InFlight', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('resolves idle() true at once when nothing is in flight, and when the last request finishes', async () => {
    const inFlight = new InFlight();
    await expect(inFlight.idle(1_000)).resolves.toBe(true);
    inFlight.start();
    inFlight.start();
    const idle = inFlight.idle(1_000);
    inFlight.finish();
    expect(inFlight.count).toBe(1);
    inFlight.finish();
    await expect(idle).resolves.toBe(true);
  });

  it('resolves idle() false when the time runs out first', async () => {
    const inFlight = new InFlight();
    inFlight.start();
    const idle = inFlight.idle(1_000);
    await jest.advanceTimersByTimeAsync(1_000);
    await expect(idle).resolves.toBe(false);
    expect(inFlight.count).toBe(1);
  });
});
