/**
 * The behaviour every Store must have. Each backend's test file calls `describeStoreContract`
 * with a factory that returns a fresh, empty, not yet migrated store.
 */
import type { DeliveryLedger } from '../../src/slack/dedupe';
import type { NewAuditEntry, RecentSession, SessionAlias, Store } from '../../src/store/types';

export type StoreFactory = () => Promise<Store & DeliveryLedger>;

const TEAM = 'T0001';
const OTHER_TEAM = 'T0002';

function alias(overrides: Partial<SessionAlias> = {}): SessionAlias {
  return {
    teamId: TEAM,
    alias: 'standup',
    projectName: 'prod',
    sessionId: '1_MX4xMjM0NTY3OH4',
    createdBy: 'U001',
    createdAt: 1_700_000_000_000,
    ...overrides,
  };
}

function use(sessionId: string, usedAt: number, overrides: Partial<RecentSession> = {}): RecentSession {
  return { teamId: TEAM, projectName: 'prod', sessionId, usedBy: 'U001', usedAt, ...overrides };
}

function audit(at: number, overrides: Partial<NewAuditEntry> = {}): NewAuditEntry {
  return {
    at,
    teamId: TEAM,
    userId: 'U001',
    channelId: 'C001',
    projectName: 'prod',
    command: 'archive start',
    target: 'session 1_MX4',
    outcome: 'ok',
    ...overrides,
  };
}

export function describeStoreContract(createStore: StoreFactory): void {
  let store: Store & DeliveryLedger;

  beforeEach(async () => {
    store = await createStore();
    await store.migrate();
  });

  afterEach(async () => {
    await store.close();
  });

  describe('lifecycle', () => {
    it('migrates again without error and answers ping', async () => {
      await store.migrate();
      await expect(store.ping()).resolves.toBeUndefined();
    });

    it('keeps data across a second migrate()', async () => {
      await store.putSecret({ name: 'k', ciphertext: 'v1.a.b.c', updatedAt: 1 });
      await store.migrate();
      expect(await store.getSecret('k')).toEqual({ name: 'k', ciphertext: 'v1.a.b.c', updatedAt: 1 });
    });
  });

  describe('channel bindings', () => {
    it('is undefined for an unbound channel', async () => {
      expect(await store.getChannelBinding(TEAM, 'C001')).toBeUndefined();
    });

    it('creates a binding with only the given fields', async () => {
      await store.setChannelBinding({ teamId: TEAM, channelId: 'C001', projectName: 'prod', updatedBy: 'U001', updatedAt: 10 });
      expect(await store.getChannelBinding(TEAM, 'C001')).toEqual({
        teamId: TEAM,
        channelId: 'C001',
        projectName: 'prod',
        updatedBy: 'U001',
        updatedAt: 10,
      });
    });

    it('merges: setting only the session keeps the project', async () => {
      await store.setChannelBinding({ teamId: TEAM, channelId: 'C001', projectName: 'prod', updatedBy: 'U001', updatedAt: 10 });
      await store.setChannelBinding({ teamId: TEAM, channelId: 'C001', sessionId: 'S1', updatedBy: 'U002', updatedAt: 20 });
      expect(await store.getChannelBinding(TEAM, 'C001')).toEqual({
        teamId: TEAM,
        channelId: 'C001',
        projectName: 'prod',
        sessionId: 'S1',
        updatedBy: 'U002',
        updatedAt: 20,
      });
    });

    it('replaces a field that is given again and clears one given as null', async () => {
      await store.setChannelBinding({ teamId: TEAM, channelId: 'C001', projectName: 'prod', sessionId: 'S1', updatedBy: 'U001', updatedAt: 10 });
      await store.setChannelBinding({ teamId: TEAM, channelId: 'C001', projectName: 'staging', sessionId: null, updatedBy: 'U001', updatedAt: 20 });
      expect(await store.getChannelBinding(TEAM, 'C001')).toEqual({
        teamId: TEAM,
        channelId: 'C001',
        projectName: 'staging',
        updatedBy: 'U001',
        updatedAt: 20,
      });
    });

    it('keeps channels and teams apart', async () => {
      await store.setChannelBinding({ teamId: TEAM, channelId: 'C001', projectName: 'prod', updatedBy: 'U001', updatedAt: 10 });
      expect(await store.getChannelBinding(TEAM, 'C002')).toBeUndefined();
      expect(await store.getChannelBinding(OTHER_TEAM, 'C001')).toBeUndefined();
    });

    it('finds the channels whose default a session is, the latest set first, of that project and team only', async () => {
      await store.setChannelBinding({ teamId: TEAM, channelId: 'C001', projectName: 'prod', sessionId: 'S1', updatedBy: 'U001', updatedAt: 10 });
      await store.setChannelBinding({ teamId: TEAM, channelId: 'C002', projectName: 'prod', sessionId: 'S1', updatedBy: 'U001', updatedAt: 30 });
      await store.setChannelBinding({ teamId: TEAM, channelId: 'C003', projectName: 'staging', sessionId: 'S1', updatedBy: 'U001', updatedAt: 40 });
      await store.setChannelBinding({ teamId: TEAM, channelId: 'C004', projectName: 'prod', sessionId: 'S2', updatedBy: 'U001', updatedAt: 50 });
      await store.setChannelBinding({ teamId: OTHER_TEAM, channelId: 'C005', projectName: 'prod', sessionId: 'S1', updatedBy: 'U001', updatedAt: 60 });
      expect(await store.channelsDefaultingTo(TEAM, 'prod', 'S1')).toEqual(['C002', 'C001']);
      await store.setChannelBinding({ teamId: TEAM, channelId: 'C002', sessionId: null, updatedBy: 'U001', updatedAt: 70 });
      expect(await store.channelsDefaultingTo(TEAM, 'prod', 'S1')).toEqual(['C001']);
      expect(await store.channelsDefaultingTo(TEAM, 'prod', 'S9')).toEqual([]);
    });
  });

  describe('aliases', () => {
    it('stores aliases lower-cased and finds them case-insensitively', async () => {
      await store.putAlias(alias({ alias: 'StandUp' }));
      expect(await store.getAlias(TEAM, 'STANDUP')).toEqual(alias({ alias: 'standup' }));
    });

    it('is unique per team: a second put with another case replaces the first', async () => {
      await store.putAlias(alias({ alias: 'standup', sessionId: 'S1' }));
      await store.putAlias(alias({ alias: 'Standup', sessionId: 'S2', createdBy: 'U002', createdAt: 5 }));
      expect(await store.listAliases(TEAM)).toEqual([alias({ alias: 'standup', sessionId: 'S2', createdBy: 'U002', createdAt: 5 })]);
    });

    it('finds the alias of a session (the first of several), of that project and team only', async () => {
      await store.putAlias(alias({ alias: 'standup', sessionId: 'S1' }));
      await store.putAlias(alias({ alias: 'daily', sessionId: 'S1' }));
      await store.putAlias(alias({ alias: 'other', sessionId: 'S2' }));
      await store.putAlias(alias({ teamId: OTHER_TEAM, alias: 'elsewhere', sessionId: 'S3' }));
      expect(await store.aliasOfSession(TEAM, 'prod', 'S1')).toBe('daily');
      expect(await store.aliasOfSession(TEAM, 'staging', 'S1')).toBeUndefined();
      expect(await store.aliasOfSession(TEAM, 'prod', 'S3')).toBeUndefined();
      expect(await store.aliasOfSession(OTHER_TEAM, 'prod', 'S3')).toBe('elsewhere');
    });

    it('lets two teams use the same alias', async () => {
      await store.putAlias(alias({ sessionId: 'S1' }));
      await store.putAlias(alias({ teamId: OTHER_TEAM, sessionId: 'S2' }));
      expect((await store.getAlias(TEAM, 'standup'))?.sessionId).toBe('S1');
      expect((await store.getAlias(OTHER_TEAM, 'standup'))?.sessionId).toBe('S2');
    });

    it('lists alphabetically, by prefix (any case), with a limit', async () => {
      for (const name of ['sales-weekly', 'standup', 'Stage', 'allhands', 'st%x', 'st_y']) {
        await store.putAlias(alias({ alias: name }));
      }
      const names = async (prefix?: string, limit?: number) => (await store.listAliases(TEAM, prefix, limit)).map((a) => a.alias);

      expect(await names()).toEqual(['allhands', 'sales-weekly', 'st%x', 'st_y', 'stage', 'standup']);
      expect(await names('ST')).toEqual(['st%x', 'st_y', 'stage', 'standup']);
      expect(await names('sta', 1)).toEqual(['stage']);
      // LIKE wildcards in the prefix are taken literally.
      expect(await names('st%')).toEqual(['st%x']);
      expect(await names('st_')).toEqual(['st_y']);
      expect(await names('zzz')).toEqual([]);
    });

    it('deletes, reporting whether the alias existed', async () => {
      await store.putAlias(alias());
      expect(await store.deleteAlias(TEAM, 'STANDUP')).toBe(true);
      expect(await store.deleteAlias(TEAM, 'standup')).toBe(false);
      expect(await store.getAlias(TEAM, 'standup')).toBeUndefined();
    });
  });

  describe('recent sessions', () => {
    it('lists newest first', async () => {
      await store.touchRecentSession(use('S1', 100));
      await store.touchRecentSession(use('S2', 200));
      await store.touchRecentSession(use('S3', 300));
      expect((await store.listRecentSessions(TEAM)).map((s) => s.sessionId)).toEqual(['S3', 'S2', 'S1']);
    });

    it('moves a re-used session to the top without duplicating it', async () => {
      await store.touchRecentSession(use('S1', 100));
      await store.touchRecentSession(use('S2', 200));
      await store.touchRecentSession(use('S1', 300, { usedBy: 'U002' }));
      expect(await store.listRecentSessions(TEAM)).toEqual([use('S1', 300, { usedBy: 'U002' }), use('S2', 200)]);
    });

    it('orders uses within the same millisecond by arrival', async () => {
      await store.touchRecentSession(use('S1', 100));
      await store.touchRecentSession(use('S2', 100));
      await store.touchRecentSession(use('S1', 100));
      expect((await store.listRecentSessions(TEAM)).map((s) => s.sessionId)).toEqual(['S1', 'S2']);
    });

    it('treats the same session ID in two projects as two entries', async () => {
      await store.touchRecentSession(use('S1', 100, { projectName: 'prod' }));
      await store.touchRecentSession(use('S1', 200, { projectName: 'staging' }));
      expect((await store.listRecentSessions(TEAM)).map((s) => s.projectName)).toEqual(['staging', 'prod']);
    });

    it('keeps only the newest 50 per team, leaving other teams alone', async () => {
      await store.touchRecentSession(use('other', 1, { teamId: OTHER_TEAM }));
      for (let i = 1; i <= 55; i += 1) await store.touchRecentSession(use(`S${i}`, 1000 + i));

      const kept = await store.listRecentSessions(TEAM, 100);
      expect(kept).toHaveLength(50);
      expect(kept[0]?.sessionId).toBe('S55');
      expect(kept[49]?.sessionId).toBe('S6');
      expect(await store.listRecentSessions(OTHER_TEAM)).toEqual([use('other', 1, { teamId: OTHER_TEAM })]);
    });

    it('applies the limit', async () => {
      for (let i = 1; i <= 5; i += 1) await store.touchRecentSession(use(`S${i}`, i));
      expect((await store.listRecentSessions(TEAM, 2)).map((s) => s.sessionId)).toEqual(['S5', 'S4']);
    });
  });

  describe('audit', () => {
    it('returns the stored entry with an id', async () => {
      const stored = await store.appendAudit(audit(100, { outcome: 'error', error: 'video service answered 409' }));
      expect(stored).toEqual({ ...audit(100, { outcome: 'error', error: 'video service answered 409' }), id: expect.any(Number) });
    });

    it('omits error when there was none', async () => {
      const stored = await store.appendAudit(audit(100));
      expect(stored).not.toHaveProperty('error');
    });

    it('lists newest first, per team, with a limit', async () => {
      await store.appendAudit(audit(100, { command: 'first' }));
      await store.appendAudit(audit(300, { command: 'third' }));
      await store.appendAudit(audit(200, { command: 'second' }));
      await store.appendAudit(audit(400, { teamId: OTHER_TEAM, command: 'elsewhere' }));

      expect((await store.listAudit(TEAM)).map((e) => e.command)).toEqual(['third', 'second', 'first']);
      expect((await store.listAudit(TEAM, 2)).map((e) => e.command)).toEqual(['third', 'second']);
      expect((await store.listAudit(OTHER_TEAM)).map((e) => e.command)).toEqual(['elsewhere']);
    });

    it('orders entries with the same time by insertion', async () => {
      const first = await store.appendAudit(audit(100, { command: 'a', outcome: 'denied' }));
      const second = await store.appendAudit(audit(100, { command: 'b' }));
      expect(second.id).toBeGreaterThan(first.id);
      expect(await store.listAudit(TEAM)).toEqual([second, first]);
    });
  });

  describe('secrets', () => {
    it('is undefined for an unknown name', async () => {
      expect(await store.getSecret('prod/apiSecret')).toBeUndefined();
    });

    it('upserts', async () => {
      await store.putSecret({ name: 'prod/apiSecret', ciphertext: 'v1.one', updatedAt: 1 });
      await store.putSecret({ name: 'prod/apiSecret', ciphertext: 'v1.two', updatedAt: 2 });
      expect(await store.getSecret('prod/apiSecret')).toEqual({ name: 'prod/apiSecret', ciphertext: 'v1.two', updatedAt: 2 });
    });
  });

  describe('Slack deliveries', () => {
    const T = 1_767_225_600_000;
    const HOUR = 3_600_000;

    it('claims a delivery once while its record lasts', async () => {
      expect(await store.claimDelivery('command:T1:trigger-1', T, HOUR)).toBe(true);
      expect(await store.claimDelivery('command:T1:trigger-1', T + 1_000, HOUR)).toBe(false);
      expect(await store.claimDelivery('command:T1:trigger-1', T + HOUR - 1, HOUR)).toBe(false);
      expect(await store.claimDelivery('command:T1:trigger-2', T + 1_000, HOUR)).toBe(true);
    });

    it('lets an expired record be claimed again, for a new period', async () => {
      await store.claimDelivery('action:T1:x', T, HOUR);
      expect(await store.claimDelivery('action:T1:x', T + HOUR, HOUR)).toBe(true);
      expect(await store.claimDelivery('action:T1:x', T + HOUR + 1, HOUR)).toBe(false);
    });

    it('gives one of several simultaneous claims of a key', async () => {
      const claims = await Promise.all(Array.from({ length: 8 }, () => store.claimDelivery('view:T1:V1:t', T, HOUR)));
      expect(claims.filter(Boolean)).toHaveLength(1);
    });

    it('purges only expired records', async () => {
      await store.claimDelivery('old', T, 1_000);
      await store.claimDelivery('new', T, HOUR);
      expect(await store.purgeDeliveries(T + 1_000)).toBe(1);
      expect(await store.claimDelivery('new', T + 2_000, HOUR)).toBe(false);
      expect(await store.claimDelivery('old', T + 2_000, HOUR)).toBe(true);
    });
  });

  describe('mute state', () => {
    const key = { teamId: TEAM, projectName: 'prod', sessionId: '1_MX4standup' };
    const at = 1_767_225_600_123;

    it('is empty for a session vidops never muted', async () => {
      expect(await store.getMuteState(key)).toEqual({ streams: [] });
    });

    it('keeps the latest mute of each stream, oldest first, per session, project and team', async () => {
      await store.putStreamMute(key, { streamId: 'st-b', by: 'U001', at: at + 10, via: '/mute' });
      await store.putStreamMute(key, { streamId: 'st-a', by: 'U001', at, via: 'Mute button' });
      await store.putStreamMute(key, { streamId: 'st-b', by: 'U002', at: at + 20, via: 'Mute button' });
      await store.putStreamMute({ ...key, sessionId: 'other' }, { streamId: 'st-c', by: 'U001', at, via: '/mute' });
      await store.putStreamMute({ ...key, projectName: 'staging' }, { streamId: 'st-d', by: 'U001', at, via: '/mute' });
      await store.putStreamMute({ ...key, teamId: OTHER_TEAM }, { streamId: 'st-e', by: 'U001', at, via: '/mute' });
      expect(await store.getMuteState(key)).toEqual({
        streams: [
          { streamId: 'st-a', by: 'U001', at, via: 'Mute button' },
          { streamId: 'st-b', by: 'U002', at: at + 20, via: 'Mute button' },
        ],
      });
    });

    it('holds the session mute state with its exclusions, replaced by the next change', async () => {
      await store.putSessionMute(key, { active: true, excluded: ['st-a', 'st-b'], by: 'U001', at, via: 'Mute everyone' });
      expect((await store.getMuteState(key)).session).toEqual({ active: true, excluded: ['st-a', 'st-b'], by: 'U001', at, via: 'Mute everyone' });
      await store.putSessionMute(key, { active: false, excluded: [], by: 'U002', at: at + 5, via: '/unmute-all' });
      expect(await store.getMuteState(key)).toEqual({ streams: [], session: { active: false, excluded: [], by: 'U002', at: at + 5, via: '/unmute-all' } });
      expect((await store.getMuteState({ ...key, sessionId: 'other' })).session).toBeUndefined();
    });
  });

  it('round-trips epoch-millisecond times beyond 32 bits', async () => {
    const at = 1_767_225_600_123;
    await store.setChannelBinding({ teamId: TEAM, channelId: 'C001', sessionId: 'S', updatedBy: 'U', updatedAt: at });
    expect((await store.getChannelBinding(TEAM, 'C001'))?.updatedAt).toBe(at);
  });
}
