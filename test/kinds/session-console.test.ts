/** The session console's renderer (pure): rows, mute words, limits, the posted card's end. */
import { MAX_CONSOLE_ROWS, lastMuteOf, participantLabel, renderConsole } from '../../src/kinds/session-console';
import type { ConsoleStream, MuteState } from '../../src/poller/snapshot';
import { LIMITS } from '../../src/views/blocks';
import { ACTION } from '../../src/views/ids';
import { messageProblems } from '../harness/block-kit';
import { findElements, renderedText } from '../harness/text';

const S = { projectName: 'prod', sessionId: '2_MX4session0000000000000000000000', alias: 'standup' };
const NOW = Date.UTC(2026, 10, 25, 12, 43);
const stream = (i: number, extra: Partial<ConsoleStream> = {}): ConsoleStream => ({
  id: `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`,
  name: `Person ${i}`,
  videoType: 'camera',
  ...extra,
});
const NONE: MuteState = { streams: [] };

describe('renderConsole', () => {
  it('names unnamed streams by a short ID and words each video type', () => {
    const text = renderedText(
      renderConsole({ session: S, streams: [stream(1, { name: undefined, videoType: 'screen' }), stream(2, { videoType: undefined })], mutes: NONE, now: NOW }),
    );
    expect(text).toContain('_unnamed_ `00000001` · :desktop_computer: screen');
    expect(text).toContain('*Person 2* · unknown type');
    expect(participantLabel(stream(1, { name: undefined }))).toBe('unnamed 00000001');
  });

  it('says who muted a stream, when and through what; the session mute covers the rest but those spared', () => {
    const mutes: MuteState = {
      streams: [{ streamId: stream(1).id, by: 'U1', at: NOW - 60_000, via: '/mute' }],
      session: { active: true, excluded: [stream(3).id], by: 'U2', at: NOW, via: 'Mute everyone' },
    };
    const message = renderConsole({ session: S, streams: [stream(1), stream(2), stream(3)], mutes, now: NOW });
    const text = renderedText(message);
    expect(text).toContain('Everyone in `standup` muted by <@U2> at <!date^');
    expect(text).toContain('(except Person 3)');
    expect(text).toMatch(/\*Person 2\* · :movie_camera: camera\n:mute: muted by <@U2> at .* via Mute everyone/);
    expect(text).toMatch(/\*Person 3\* · :movie_camera: camera\n:speaker: spared when everyone was muted/);
    // The later session mute is what vidops did last to Person 1 too.
    expect(lastMuteOf(stream(1).id, mutes)?.by).toBe('U2');
    expect(text).not.toMatch(/\bis muted\b/);
  });

  it('after /unmute-all the session line says it was turned off and streams keep their own mutes', () => {
    const mutes: MuteState = {
      streams: [{ streamId: stream(1).id, by: 'U1', at: NOW - 60_000, via: '/mute' }],
      session: { active: false, excluded: [], by: 'U2', at: NOW, via: '/unmute-all' },
    };
    const text = renderedText(renderConsole({ session: S, streams: [stream(1), stream(2)], mutes, now: NOW }));
    expect(text).toContain('Mute everyone turned off by <@U2>');
    expect(text).toMatch(/\*Person 1\* · :movie_camera: camera\n:mute: muted by <@U1> at .* via \/mute/);
    expect(text).toMatch(/\*Person 2\* · :movie_camera: camera\n:speaker: no mute from vidops/);
  });

  it.each([1, MAX_CONSOLE_ROWS, MAX_CONSOLE_ROWS + 1, 45, 300])('stays within Block Kit limits with %i participants, long names cut', (count) => {
    const streams = Array.from({ length: count }, (_, i) => stream(i, { name: `${'Ü'.repeat(300)} <!channel> ${i}` }));
    const mutes: MuteState = {
      streams: [],
      session: { active: true, excluded: streams.slice(0, 40).map((s) => s.id), by: 'U1', at: NOW, via: 'Mute everyone' },
    };
    for (const posted of [undefined, { by: 'U1' }]) {
      const message = renderConsole({ session: S, streams, mutes, now: NOW, ...(posted && { posted }) });
      expect(messageProblems(message)).toEqual([]);
      expect(message.blocks.length).toBeLessThanOrEqual(LIMITS.messageBlocks);
      expect(findElements(message, ACTION.muteStream)).toHaveLength(Math.min(count, MAX_CONSOLE_ROWS));
      expect(findElements(message, ACTION.consoleMuteAll)).toHaveLength(1);
      expect(JSON.stringify(message)).not.toContain('<!channel>');
      if (count > MAX_CONSOLE_ROWS) expect(renderedText(message)).toContain(`*${count - MAX_CONSOLE_ROWS} more:*`);
    }
  });

  it('a posted console that ended says why, and has no buttons', () => {
    for (const ended of ['empty', 'expired'] as const) {
      const message = renderConsole({ session: S, streams: [stream(1)], mutes: NONE, now: NOW, posted: { by: 'U1', ended } });
      expect(renderedText(message)).toContain('stopped updating');
      expect(message.blocks.some((b) => b.type === 'actions')).toBe(false);
    }
  });

  it('without an alias the header says what it is and the ID sits in the context line', () => {
    const message = renderConsole({ session: { projectName: 'prod', sessionId: S.sessionId }, streams: [stream(1)], mutes: NONE, now: NOW });
    expect(message.blocks[0]).toEqual(expect.objectContaining({ type: 'header', text: expect.objectContaining({ text: 'Session console' }) }));
    expect(message.blocks[1]).toEqual(expect.objectContaining({ type: 'context' }));
    expect(renderedText(message.blocks[1])).toContain(`session ID \`${S.sessionId}\``);
  });
});
