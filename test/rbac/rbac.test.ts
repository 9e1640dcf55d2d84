import type { webApi } from '@slack/bolt';
import { Authorizer, hasRole, parsePolicy, roleWithArticle, unknownPolicyProjects } from '../../src/rbac';
import { UsergroupCache } from '../../src/slack/usergroups';

function fakeClient(groups: Record<string, string[]>, failing: Set<string> = new Set()) {
  const calls: string[] = [];
  const client = {
    usergroups: {
      users: {
        list: async ({ usergroup }: { usergroup: string }) => {
          calls.push(usergroup);
          if (failing.has(usergroup)) throw Object.assign(new Error('An API error occurred: ratelimited'), { data: { ok: false, error: 'ratelimited' } });
          return { ok: true, users: groups[usergroup] ?? [] };
        },
      },
    },
  } as unknown as webApi.WebClient;
  return { client, calls };
}

/** Acting in `channelId` (no project named: the channel's own projects). */
const inChannel = (channelId: string | undefined) => ({ teamId: 'T1', ...(channelId ? { channelId } : {}) });

function policy(source: unknown) {
  const parsed = parsePolicy(source);
  if (!parsed.ok) throw new Error(parsed.problems.join('; '));
  return parsed.policy;
}

describe('parsePolicy', () => {
  it('reads nothing as the empty policy (everyone a viewer)', () => {
    for (const source of [undefined, null, '', '  ']) {
      expect(parsePolicy(source)).toEqual({ ok: true, policy: { defaultRole: 'viewer', roles: {}, channels: {}, projects: {} } });
    }
  });

  it('reads JSON text and parsed documents alike, filling defaults', () => {
    const doc = { roles: { admin: { users: ['U1'] } }, channels: { C123: { moderator: { groups: ['S9'] } } } };
    const expected = {
      defaultRole: 'viewer',
      roles: { admin: { users: ['U1'], groups: [] } },
      channels: { C123: { moderator: { users: [], groups: ['S9'] } } },
      projects: {},
    };
    expect(parsePolicy(doc)).toEqual({ ok: true, policy: expected });
    expect(parsePolicy(JSON.stringify(doc))).toEqual({ ok: true, policy: expected });
  });

  it.each([
    ['{not json', /not valid JSON/],
    [{ roles: { admin: { users: ['bob'] } } }, /roles\.admin\.users\[0\]: a Slack user ID looks like U012ABCDEF/],
    [{ roles: { admin: { groups: ['U1'] } } }, /roles\.admin\.groups\[0\]: a Slack user-group ID/],
    [{ roles: { owner: { users: ['U1'] } } }, /roles: Unrecognized key/i],
    [{ channels: { general: {} } }, /channels\.general: a Slack channel ID/],
    [{ defaultRole: 'admin' }, /defaultRole/],
    [{ role: {} }, /Unrecognized key/i],
  ])('rejects %j with the JSON path', (source, problem) => {
    const parsed = parsePolicy(source);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems.join('\n')).toMatch(problem);
  });
});

describe('Authorizer.roleOf', () => {
  const doc = {
    roles: {
      admin: { users: ['UADMIN'], groups: ['SADMINS'] },
      moderator: { users: ['UMOD'], groups: ['SONCALL'] },
    },
    channels: { CSTANDUP: { moderator: { users: ['UHOST'], groups: ['SHOSTS'] } } },
  };
  const groups = { SADMINS: ['UBIGBOSS'], SONCALL: ['UPAGER', 'UMOD'], SHOSTS: ['UGUEST'] };

  const cases: [string, string, string | undefined, string][] = [
    ['nobody special', 'USTRANGER', 'CANY', 'viewer'],
    ['a listed admin', 'UADMIN', 'CANY', 'admin'],
    ['an admin by group', 'UBIGBOSS', undefined, 'admin'],
    ['a listed moderator', 'UMOD', 'CANY', 'moderator'],
    ['a moderator by group', 'UPAGER', 'CANY', 'moderator'],
    ['a channel moderator in that channel', 'UHOST', 'CSTANDUP', 'moderator'],
    ['a channel moderator elsewhere', 'UHOST', 'COTHER', 'viewer'],
    ['a channel moderator by group in that channel', 'UGUEST', 'CSTANDUP', 'moderator'],
    ['an env admin', 'UENV', 'CANY', 'admin'],
  ];
  it.each(cases)('%s', async (_name, user, channel, role) => {
    const { client } = fakeClient(groups);
    const authorizer = new Authorizer(policy(doc), ['UENV'], new UsergroupCache());
    expect((await authorizer.roleOf(client, user, inChannel(channel))).role).toBe(role);
  });

  it('looks up no group when a direct grant already gives the highest role', async () => {
    const { client, calls } = fakeClient(groups);
    const authorizer = new Authorizer(policy(doc), [], new UsergroupCache());
    await authorizer.roleOf(client, 'UADMIN', inChannel('CSTANDUP'));
    expect(calls).toEqual([]);
  });

  it('without a policy: everyone is a viewer and VIDOPS_ADMINS are admins', async () => {
    const { client } = fakeClient({});
    const authorizer = new Authorizer(undefined, ['UENV'], new UsergroupCache());
    expect((await authorizer.roleOf(client, 'UX', inChannel('C1'))).role).toBe('viewer');
    expect((await authorizer.roleOf(client, 'UENV', inChannel('C1'))).role).toBe('admin');
    expect(authorizer.adminContacts()).toEqual(['UENV']);
  });

  it('defaultRole none gives strangers nothing', async () => {
    const { client } = fakeClient({});
    const authorizer = new Authorizer(policy({ defaultRole: 'none', roles: { viewer: { users: ['UVIEW'] } } }), [], new UsergroupCache());
    expect((await authorizer.roleOf(client, 'UX', inChannel('C1'))).role).toBe('none');
    expect((await authorizer.roleOf(client, 'UVIEW', inChannel('C1'))).role).toBe('viewer');
    expect(hasRole('none', 'viewer')).toBe(false);
    expect(roleWithArticle('none')).toBe('not granted any role');
  });

  it('reports groups it could not check and keeps the other grants', async () => {
    const { client } = fakeClient(groups, new Set(['SADMINS']));
    const authorizer = new Authorizer(policy(doc), [], new UsergroupCache());
    expect(await authorizer.roleOf(client, 'UPAGER', inChannel('C1'))).toEqual({ role: 'moderator', uncheckedGroups: ['SADMINS'] });
  });
});

describe('Authorizer.roleOf with projects: grants hold where people act', () => {
  const doc = {
    defaultRole: 'none',
    channels: { CA: { moderator: { users: ['UHOST'] } }, CDEFAULT: { moderator: { users: ['UHOST'] } } },
    projects: { prod: { moderator: { users: ['URELEASE'], groups: ['SRELEASE'] } } },
  };
  /** CA may use staging (bound); CB may use prod; CDEFAULT has nothing bound (the default project, staging). */
  const bound: Record<string, string[]> = { CA: ['staging'], CB: ['prod'] };
  const channelProjects = async (_team: string, channel: string) => bound[channel] ?? ['staging'];
  const make = () => new Authorizer(policy(doc), [], new UsergroupCache(), undefined, channelProjects);
  const cases: [string, string, string | undefined, string, string][] = [
    ['a channel grant on a project the channel uses', 'UHOST', 'CA', 'staging', 'moderator'],
    ['a channel grant on a project bound elsewhere', 'UHOST', 'CA', 'prod', 'none'],
    ['a channel grant acting in another channel', 'UHOST', 'CB', 'prod', 'none'],
    ['a channel grant with nothing bound: the default project', 'UHOST', 'CDEFAULT', 'staging', 'moderator'],
    ['a channel grant with nothing bound: another project', 'UHOST', 'CDEFAULT', 'prod', 'none'],
    ['a channel grant with no acting channel (shortcut, App Home)', 'UHOST', undefined, 'staging', 'none'],
    ['a project grant from any channel', 'URELEASE', 'CA', 'prod', 'moderator'],
    ['a project grant with no acting channel', 'URELEASE', undefined, 'prod', 'moderator'],
    ['a project grant on another project', 'URELEASE', 'CB', 'staging', 'none'],
    ['a project grant by group', 'UGROUPIE', 'CA', 'prod', 'moderator'],
  ];
  it.each(cases)('%s', async (_name, user, channel, projectName, role) => {
    const { client } = fakeClient({ SRELEASE: ['UGROUPIE'] });
    expect((await make().roleOf(client, user, { ...inChannel(channel), projectName })).role).toBe(role);
  });

  it('lists the projects someone may see, with and without an acting channel', async () => {
    const { client } = fakeClient({});
    const authorizer = make();
    expect(await authorizer.viewableProjects(client, 'UHOST', 'T1', ['prod', 'staging'], 'CA')).toEqual(['staging']);
    expect(await authorizer.viewableProjects(client, 'UHOST', 'T1', ['prod', 'staging'])).toEqual([]);
    expect(await authorizer.viewableProjects(client, 'URELEASE', 'T1', ['prod', 'staging'])).toEqual(['prod']);
    expect(await authorizer.viewableProjects(client, 'USTRANGER', 'T1', ['prod', 'staging'], 'CB')).toEqual([]);
  });

  it('refuses a policy granting on a project that is not configured', () => {
    expect(unknownPolicyProjects(policy(doc), ['staging'])).toEqual([expect.stringMatching(/^projects\.prod: there is no configured project named “prod”/)]);
    expect(unknownPolicyProjects(policy(doc), ['staging', 'prod'])).toEqual([]);
  });
});

describe('UsergroupCache', () => {
  it('caches members for the TTL, then refreshes', async () => {
    let now = 0;
    const cache = new UsergroupCache({ ttlMs: 5 * 60_000, clock: () => now });
    const members: Record<string, string[]> = { S1: ['U1'] };
    const { client, calls } = fakeClient(members);
    expect([...(await cache.members(client, 'S1'))]).toEqual(['U1']);
    members.S1 = ['U2'];
    now = 5 * 60_000 - 1;
    expect([...(await cache.members(client, 'S1'))]).toEqual(['U1']);
    now = 5 * 60_000;
    expect([...(await cache.members(client, 'S1'))]).toEqual(['U2']);
    expect(calls).toEqual(['S1', 'S1']);
  });

  it('shares one lookup between concurrent callers', async () => {
    const cache = new UsergroupCache();
    const { client, calls } = fakeClient({ S1: ['U1'] });
    await Promise.all([cache.members(client, 'S1'), cache.members(client, 'S1'), cache.members(client, 'S1')]);
    expect(calls).toEqual(['S1']);
  });

  it('keeps serving the last known members when a refresh fails, and fails when it never knew any', async () => {
    let now = 0;
    const cache = new UsergroupCache({ ttlMs: 1000, clock: () => now });
    const failing = new Set<string>();
    const { client } = fakeClient({ S1: ['U1'] }, failing);
    await cache.members(client, 'S1');
    failing.add('S1');
    now = 5000;
    expect([...(await cache.members(client, 'S1'))]).toEqual(['U1']);
    failing.add('S2');
    await expect(cache.members(client, 'S2')).rejects.toThrow(/ratelimited/);
  });
});
