/**
 * Watches read from rows share one copy of the strings many of them hold (kind, team, channel,
 * project, session): a row brings its own copies, and 10,000 watches kept them all.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Watch } from '../../src/poller/watch';
import { type WatchRecord, toWatch } from '../../src/store/watch-rows';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** A fresh copy of the text, as a database driver hands back for every row. */
const copyOf = (text: string): string => Buffer.from(text).toString();

function row(i: number, copy: (text: string) => string): WatchRecord {
  return {
    id: `T0BENCH:C0001:archive:${i}`,
    kind: copy('archive') as WatchRecord['kind'],
    resource_id: `b40ef09b-3811-4726-b508-${String(i).padStart(12, '0')}`,
    session_id: copy('2_MX40NzIwMzJ-flR1ZSBPY3QgMjkgMTI6MTM6MjMgUERUIDIwMTN-MC45NDQ2MzE2NH4'),
    team_id: copy('T0BENCH'),
    channel_id: copy('C0001BENCH'),
    message_ts: null,
    thread_ts: null,
    project_name: copy('production-eu'),
    last_state: '{"status":"started","createdAt":1764000000000,"durationS":0,"sizeBytes":0}',
    card: null,
    last_change_at: 1_764_000_000_000,
    next_poll_at: 1_764_000_003_000,
    created_at: 1_764_000_000_000,
    expires_at: 1_764_086_400_000,
    ended_at: null,
    lease_owner: null,
    lease_until: null,
    failures: 0,
    revision: 0,
    repoll_requested: 0,
  };
}

/** The heap in use once everything collectable is collected (twice: the first may leave pages unswept). */
function heapUsed(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Heap kept per watch by `count` watches read from rows made with `copy`: the median of five tries (work left by an earlier test may allocate or free meanwhile). */
function retained(count: number, copy: (text: string) => string): number {
  const tries = [0, 1, 2, 3, 4].map(() => {
    const before = heapUsed();
    const watches: Watch[] = [];
    for (let i = 0; i < count; i++) watches.push(toWatch(row(i, copy)));
    const used = heapUsed() - before;
    expect(watches).toHaveLength(count);
    return used / count;
  });
  return tries.sort((a, b) => a - b)[2]!;
}

test('watches from rows with their own copies of shared strings keep no more than watches from rows sharing them', () => {
  const sharedRows = retained(5_000, (text) => text);
  const ownCopies = retained(5_000, copyOf);
  // Without sharing: ~190 bytes a watch more (the five strings' copies).
  expect(ownCopies).toBeLessThan(sharedRows + 60);
});

test('a watch read from a row is the row', () => {
  const watch = toWatch(row(7, copyOf));
  expect(watch).toMatchObject({
    kind: 'archive',
    sessionId: expect.stringMatching(/^2_MX40/),
    teamId: 'T0BENCH',
    channelId: 'C0001BENCH',
    projectName: 'production-eu',
  });
});
