/**
 * The role matrix: every command form × viewer / moderator / admin × a channel that grants
 * roles / one that does not, as real signed slash commands to the real app.
 *
 * The expectations come from two small tables written here, not from the code under test:
 * FORMS (the role each command form needs, as the README and src/rbac/README.md document it) and
 * HOLDS (the role each person holds in each channel under POLICY). Allowed: the command is
 * attempted (its first answer is not a denial). Denied: the answer names the role needed and the
 * role held, the denial is audited, and the video service receives no request.
 * Every subcommand in COMMANDS must have a row, so a new one fails here until it is classified.
 */
import { COMMANDS } from '../../src/commands';
import type { RequiredRole, Role } from '../../src/rbac/roles';
import { TEAM, startTestApp, type TestApp } from '../harness/app';
import type { RecordedCall, RecordedResponse } from '../harness/fake-slack';
import { renderedText } from '../harness/text';
import { messageProblems, modalProblems } from '../harness/block-kit';

const ALLOWED = 'C0ALLOWED';
const DENIED = 'C0DENIED';
const PEOPLE = { viewer: 'U0VIEWER', moderator: 'U0MODERATOR', admin: 'U0ADMINISTRATOR' } as const;
type Person = keyof typeof PEOPLE;

/** Viewer and moderator only in #allowed; the admin everywhere; nobody else holds anything. */
const POLICY = {
  defaultRole: 'none',
  roles: { admin: { users: [PEOPLE.admin] } },
  channels: { [ALLOWED]: { viewer: { users: [PEOPLE.viewer] }, moderator: { users: [PEOPLE.moderator] } } },
};

/** What each person holds where, under POLICY. */
const HOLDS: Record<string, Record<Person, Role>> = {
  [ALLOWED]: { viewer: 'viewer', moderator: 'moderator', admin: 'admin' },
  [DENIED]: { viewer: 'none', moderator: 'none', admin: 'admin' },
};

const RANK: Record<Role, number> = { none: 0, viewer: 1, moderator: 2, admin: 3 };

const UUID = '0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9';

/** [command, subcommand (the form), argument text, role needed]. `{stream}`/`{connection}` are a publisher of the `standup` session. */
const FORMS: readonly [string, string, string, RequiredRole][] = [
  ['/video', 'alias', 'tmp-{n} {session}', 'moderator'],
  ['/video', 'unalias', 'no-such-alias', 'moderator'],
  ['/video', 'aliases', '', 'viewer'],
  ['/video', 'use', '', 'viewer'],
  ['/video', 'use', 'standup', 'moderator'],
  ['/video', 'audit', '', 'admin'],
  ['/video', 'watch', 'standup', 'moderator'],
  ['/video', 'unwatch', 'standup', 'moderator'],
  ['/video', 'watches', '', 'viewer'],
  ['/streams', '', 'standup', 'viewer'],
  ['/mute', '', '{stream} standup', 'moderator'],
  ['/mute-all', '', 'standup', 'moderator'],
  ['/unmute-all', '', 'standup', 'moderator'],
  ['/kick', '', '{connection} standup', 'moderator'],
  ['/signal', '', 'standup chat hello', 'moderator'],
  ['/session', 'create', '', 'moderator'],
  ['/record', 'start', '', 'moderator'],
  ['/record', 'start', 'standup "Weekly review"', 'moderator'],
  ['/record', 'stop', UUID, 'moderator'],
  ['/record', 'list', 'standup', 'viewer'],
  ['/record', 'show', UUID, 'viewer'],
  ['/record', 'delete', UUID, 'admin'],
  ['/record', 'layout', `${UUID} --layout pip`, 'moderator'],
  ['/record', 'add', `${UUID} {stream}`, 'moderator'],
  ['/record', 'remove', `${UUID} {stream}`, 'moderator'],
  ['/record', 'storage', '', 'admin'],
  ['/record', 'storage', 'clear', 'admin'],
  ['/captions', 'start', 'standup', 'moderator'],
  ['/captions', 'stop', '--session standup', 'moderator'],
  ['/render', 'start', 'https://example.com/board standup', 'moderator'],
  ['/render', 'stop', '--session standup', 'moderator'],
  ['/render', 'list', 'standup', 'viewer'],
  ['/render', 'show', UUID, 'viewer'],
  ['/dial', '', 'sip:+15551234567@sip.example.com standup', 'moderator'],
  ['/dtmf', '', '1234 standup', 'moderator'],
  ['/audio-connect', '', 'wss://example.com/audio standup', 'moderator'],
  ['/broadcast', 'start', 'standup --hls', 'moderator'],
  ['/broadcast', 'stop', UUID, 'moderator'],
  ['/broadcast', 'list', 'standup', 'viewer'],
  ['/broadcast', 'show', UUID, 'viewer'],
  ['/broadcast', 'layout', `${UUID} bestFit`, 'moderator'],
  ['/broadcast', 'add', `${UUID} {stream}`, 'moderator'],
  ['/broadcast', 'remove', `${UUID} {stream}`, 'moderator'],
  ['/video-admin', 'projects', '', 'admin'],
  ['/video-admin', 'project', 'prod', 'admin'],
  ['/video-admin', 'create', '"Matrix project"', 'admin'],
  ['/video-admin', 'suspend', '46123456', 'admin'],
  ['/video-admin', 'activate', '46123456', 'admin'],
  ['/video-admin', 'delete', '46123456', 'admin'],
  ['/video-admin', 'rotate-secret', '46123456', 'admin'],
  ['/usage', '', '--private', 'viewer'],
  ['/usage', 'sessions', '--private', 'viewer'],
  ['/usage', 'session', 'standup', 'viewer'],
  ['/usage', 'schedule', 'list', 'viewer'],
  ['/usage', 'schedule', 'weekly', 'moderator'],
  ['/usage', 'schedule', 'cancel 999', 'moderator'],
];

type Outcome = 'allowed' | 'denied';

function expectedRow(required: RequiredRole): string {
  return [ALLOWED, DENIED]
    .map((channel) =>
      (['viewer', 'moderator', 'admin'] as const).map((p) => `${p}:${RANK[HOLDS[channel]![p]] >= RANK[required] ? 'allowed' : 'denied'}`).join(' '),
    )
    .join(' | ');
}

/** Waits that lost a race; they end by themselves (timeout) and are awaited before the app closes. */
const losers: Promise<unknown>[] = [];

/** The first thing the app sent for a command: its response_url answer, a modal, or a message. */
async function firstAnswer(t: TestApp, responseId: string, since: number): Promise<RecordedResponse | RecordedCall> {
  const waits: Promise<RecordedResponse | RecordedCall>[] = [
    t.slack.waitForResponse(responseId, undefined, { timeoutMs: 5_000 }),
    ...['views.open', 'chat.postMessage', 'chat.postEphemeral', 'files.getUploadURLExternal'].map((method) =>
      t.slack.waitForCall(method, undefined, { since, timeoutMs: 5_000 }),
    ),
  ];
  const first = await Promise.race(waits);
  losers.push(...waits.map((wait) => wait.catch(() => undefined)));
  return first;
}

/** A denial as src/views/denied.ts words it (audit listings mention denials too, differently). */
const DENIAL = /:no_entry: `[^`]+` needs the \w+ role; you are /;

describe('role matrix: every command form × viewer/moderator/admin × #allowed/#denied', () => {
  let t: TestApp;
  let stream = '';
  let connection = '';
  let session = '';
  let n = 0;

  beforeAll(async () => {
    t = await startTestApp({ policy: POLICY, account: true });
    const seeded = t.seedSession({ streams: 3 });
    [session, stream, connection] = [seeded.sessionId, seeded.streams[0]!, seeded.connections[1]!];
    for (const [text, channel] of [
      [`alias standup ${session}`, ALLOWED],
      ['use standup', ALLOWED],
      ['use standup', DENIED],
    ] as const) {
      const res = await t.slash('/video', text, { user: PEOPLE.admin, channel });
      await firstAnswer(t, res.responseId, t.slack.mark());
    }
  });
  afterAll(async () => {
    await Promise.all(losers);
    await t.close();
  });

  it('has a row for every subcommand of every registered command', () => {
    const forms = new Set(FORMS.map(([command, sub]) => `${command} ${sub}`.trim()));
    const missing = COMMANDS.flatMap((c) => c.subcommands.map((s) => `${c.command} ${s.name ?? ''}`.trim())).filter((form) => !forms.has(form));
    expect(missing).toEqual([]);
  });

  it.each(FORMS.map((row) => [`${`${row[0]} ${row[1]} ${row[2]}`.replace(/\s+/g, ' ').trim()} — needs ${row[3]}`, ...row] as const))(
    '%s',
    async (_title, command, sub, args, required) => {
      const outcomes: string[] = [];
      for (const channel of [ALLOWED, DENIED]) {
        const cells: string[] = [];
        for (const person of ['viewer', 'moderator', 'admin'] as const) {
          const text = `${sub} ${args}`
            .replace('{session}', session)
            .replace('{stream}', stream)
            .replace('{connection}', connection)
            .replace('{n}', String(++n))
            .trim();
          const since = t.slack.mark();
          const requestsBefore = t.emulator.control.requestLog().length;
          const res = await t.slash(command, text, { user: PEOPLE[person], channel });
          expect(res.status).toBe(200);
          expect(res.ack).toBeUndefined();
          const answer = await firstAnswer(t, res.responseId, since);
          const said = renderedText(answer.body);
          const denied = DENIAL.test(said);
          const outcome: Outcome = denied ? 'denied' : 'allowed';
          cells.push(`${person}:${outcome}`);
          const isModal = 'method' in answer && answer.method === 'views.open';
          expect(isModal ? modalProblems(answer.body.view) : messageProblems(answer.body)).toEqual([]);
          if (denied) {
            const held = HOLDS[channel]![person];
            const article = held === 'none' ? 'not granted any role' : `${held === 'admin' ? 'an' : 'a'} ${held}`;
            const what = sub ? `${command} ${sub}` : command;
            expect(said).toContain(`\`${what}\` needs the ${required} role; you are ${article}.`);
            expect(t.emulator.control.requestLog().slice(requestsBefore)).toEqual([]);
            const [audit] = await t.store.listAudit(TEAM, 1);
            expect(audit).toEqual(expect.objectContaining({ userId: PEOPLE[person], channelId: channel, command: what, outcome: 'denied' }));
          }
        }
        outcomes.push(cells.join(' '));
      }
      expect(outcomes.join(' | ')).toBe(expectedRow(required));
    },
  );
});
