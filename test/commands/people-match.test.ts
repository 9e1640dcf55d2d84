/** Table test of the matcher behind `/mute <who>` and `/kick <who>`. */
import { type Participant, looksLikeId, matchPeople } from '../../src/commands/people-match';

const ALICE: Participant = {
  streamId: 'aaaa1111-0000-4000-8000-000000000001',
  name: 'Alice',
  videoType: 'camera',
  connectionId: 'c0000000-0000-4000-8000-00000000000a',
};
const BOB: Participant = {
  streamId: 'bbbb2222-0000-4000-8000-000000000002',
  name: 'Bob',
  videoType: 'camera',
  connectionId: 'c0000000-0000-4000-8000-00000000000b',
};
const BOB_SCREEN: Participant = { streamId: 'bbbb3333-0000-4000-8000-000000000003', name: 'Screen', videoType: 'screen', connectionId: BOB.connectionId! };
const BOBBY: Participant = { streamId: 'cccc4444-0000-4000-8000-000000000004', name: 'Bobby', videoType: 'camera' };
const UNNAMED: Participant = { streamId: 'dddd5555-0000-4000-8000-000000000005', videoType: 'custom' };
const ROOM = [ALICE, BOB, BOB_SCREEN, BOBBY, UNNAMED];

const ids = (m: ReturnType<typeof matchPeople>): string[] =>
  m.type === 'person' ? m.person.streams.map((s) => s.streamId) : m.type === 'ambiguous' ? m.candidates.map((s) => s.streamId) : [];

describe('matchPeople', () => {
  it.each([
    ['a name in any case', 'alice', 'person', [ALICE]],
    ['a unique prefix', 'ALI', 'person', [ALICE]],
    ['an exact name over longer names it prefixes', 'bob', 'person', [BOB, BOB_SCREEN]],
    ['a stream ID', BOB_SCREEN.streamId, 'person', [BOB, BOB_SCREEN]],
    ['a stream ID in upper case', ALICE.streamId.toUpperCase(), 'person', [ALICE]],
    ['the 8 characters the console shows of an unnamed stream', 'dddd5555', 'person', [UNNAMED]],
    ['a connection ID (all of its streams)', BOB.connectionId!, 'person', [BOB, BOB_SCREEN]],
    ['a prefix several people share', 'bo', 'ambiguous', [BOB, BOBBY]],
    ['surrounding spaces', '  Bobby ', 'person', [BOBBY]],
  ] as const)('%s', (_what, query, type, expected) => {
    const match = matchPeople(query, ROOM);
    expect(match.type).toBe(type);
    expect(ids(match)).toEqual(expected.map((s) => s.streamId));
  });

  it('groups by connection only when it is known: two unnamed-connection streams with one name are two candidates', () => {
    const twins: Participant[] = [
      { streamId: 'eeee0001-0000-4000-8000-000000000001', name: 'Guest' },
      { streamId: 'eeee0002-0000-4000-8000-000000000002', name: 'Guest' },
    ];
    expect(matchPeople('guest', twins)).toEqual({ type: 'ambiguous', candidates: twins });
  });

  it('reads an ID nobody publishes as an ID (a connection, or a stream that left)', () => {
    expect(matchPeople('e9f8c166-6c67-440d-994a-04fb6dfed007', ROOM)).toEqual({ type: 'id', id: 'e9f8c166-6c67-440d-994a-04fb6dfed007' });
  });

  it.each(['Zed', 'x', '', '   ', 'dddd5'])('finds nobody for %j', (query) => {
    expect(matchPeople(query, ROOM)).toEqual({ type: 'none' });
  });

  it('finds nobody in an empty session', () => {
    expect(matchPeople('Alice', [])).toEqual({ type: 'none' });
  });

  it.each([
    ['e9f8c166-6c67-440d-994a-04fb6dfed007', true],
    ['2_MX40NzEyfn5-abcdefghijklmnop', true],
    ['Bob', false],
    ['dddd5555', false],
  ])('looksLikeId(%j) is %s', (text, expected) => {
    expect(looksLikeId(text)).toBe(expected);
  });
});
