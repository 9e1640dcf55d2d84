/** The session console's lifecycle rule: joins and leaves, the end when empty, mutes carried, read again within 15 s. */
import { replyText } from '../../src/poller/messages';
import { type ConsoleSnapshot, type MuteState, consoleSnapshot } from '../../src/poller/snapshot';
import { CONSOLE_REFRESH_MS, deadlineOf, isTerminal, observe } from '../../src/poller/transitions';

const T = 1_790_000_000_000;
const alice = { id: 'aaaa1111-0000-4000-8000-000000000001', name: 'Alice', videoType: 'camera' };
const bob = { id: 'bbbb2222-0000-4000-8000-000000000002', name: 'Bob', videoType: 'camera' };
const unnamed = { id: 'cccc3333-0000-4000-8000-000000000003', videoType: 'screen' };
const mutes: MuteState = { streams: [{ streamId: alice.id, by: 'U1', at: T, via: '/mute' }] };

describe('session console lifecycle', () => {
  const before: ConsoleSnapshot = consoleSnapshot([alice, bob], T, mutes);

  it.each([
    ['nobody came or went', [alice, bob], []],
    ['one left', [alice], ['Left: Bob']],
    ['one joined (unnamed) and one left', [alice, unnamed], ['Joined: _unnamed_ `cccc3333` · Left: Bob']],
    ['everyone left', [], ['Everyone left (last: Alice, Bob); this console stopped updating']],
  ] as const)('%s', (_what, now, replies) => {
    const seen = observe('session-console', before, { streams: now }, { now: T + 5_000 });
    expect(seen.transitions.map((t) => replyText(t))).toEqual(replies);
    // What vidops muted survives every read: the service cannot tell it.
    expect(seen.state.mutes).toEqual(mutes);
    expect(isTerminal('session-console', seen.state)).toBe(now.length === 0);
  });

  it('a session the service no longer knows ends the console', () => {
    const seen = observe('session-console', before, 'gone', { now: T + 5_000 });
    expect(seen.state.status).toBe('ended');
    expect(seen.transitions.map((t) => t.event.type)).toEqual(['console-ended']);
  });

  it('an ended console stays ended and quiet', () => {
    const ended = consoleSnapshot([], T);
    expect(observe('session-console', ended, { streams: [alice] }, { now: T + 5_000 })).toEqual({ state: ended, transitions: [] });
  });

  it('is read again within CONSOLE_REFRESH_MS of its last read while live', () => {
    expect(deadlineOf('session-console', before)).toBe(T + CONSOLE_REFRESH_MS);
    expect(deadlineOf('session-console', consoleSnapshot([], T))).toBeUndefined();
  });
});
