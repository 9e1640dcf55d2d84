import { Clock, Scheduler } from '../../src/emulator/clock';
import { Harness } from './helpers';

describe('emulator clock and scheduler', () => {
  it('runs due tasks in time order with the clock pinned to each due time', () => {
    const clock = new Clock('manual', 1_000);
    const scheduler = new Scheduler(clock);
    const seen: Array<[string, number]> = [];
    scheduler.after('b', 200, () => seen.push(['b', clock.now()]));
    scheduler.after('a', 100, () => {
      seen.push(['a', clock.now()]);
      scheduler.after('c', 50, () => seen.push(['c', clock.now()]));
    });
    scheduler.after('late', 1_000, () => seen.push(['late', clock.now()]));
    scheduler.advance(300);
    expect(seen).toEqual([
      ['a', 1_100],
      ['c', 1_150],
      ['b', 1_200],
    ]);
    expect(clock.now()).toBe(1_300);
    scheduler.cancel('late');
    scheduler.advance(5_000);
    expect(seen).toHaveLength(3);
  });

  it('replaces a task scheduled again under the same key', () => {
    const clock = new Clock('manual', 0);
    const scheduler = new Scheduler(clock);
    const seen: string[] = [];
    scheduler.after('k', 10, () => seen.push('first'));
    scheduler.after('k', 20, () => seen.push('second'));
    scheduler.advance(30);
    expect(seen).toEqual(['second']);
  });

  it('follows the wall clock plus the advanced offset in real mode', async () => {
    const h = await Harness.start({ clock: 'real' });
    try {
      expect(Math.abs(h.control.now() - Date.now())).toBeLessThan(1_000);
      h.control.advanceTime(3_600_000);
      expect(Math.abs(h.control.now() - (Date.now() + 3_600_000))).toBeLessThan(1_000);
    } finally {
      await h.close();
    }
  });

  it('applies setTransitions to later transitions', async () => {
    const h = await Harness.start();
    try {
      h.control.setTransitions({ archiveProcessingMs: 1_000 });
      expect(() => h.control.setTransitions({ archiveProcessingMs: -1 })).toThrow();
      const { sessionId } = h.room();
      const { json } = await h.call('POST', '/archive', { body: { sessionId } });
      await h.call('POST', `/archive/${json.id}/stop`);
      h.control.advanceTime(1_000);
      expect(h.control.getArchive(h.apiKey, json.id).status).toBe('available');
    } finally {
      await h.close();
    }
  });
});
