/**
 * The role matrix across projects: people × acting channels × projects, for command forms (by
 * `--project` and by alias), the "Mute everyone" shortcut, and every form's submission — real
 * signed requests to the real app.
 *
 * Expectations come from HOLDS below, written from the policy as src/rbac/README.md explains it,
 * not from the code: a channel grant holds in its channel on the projects the channel uses
 * (#staging uses staging, configured; #default has nothing bound, so the default project prod);
 * a project grant holds anywhere on its project; a shortcut and its form have no acting channel.
 */
import { encodeSessionOption } from '../../src/interaction/session-ref';
import type { ModalView } from '../../src/views/blocks';
import { EMPTY_START_FORM, recordStartModal } from '../../src/views/archive-modal';
import { broadcastStartModal } from '../../src/views/broadcast-modal';
import { ACTION, BLOCK, BROADCAST_BLOCK, CALLBACK, RECORD_ACTION, RECORD_BLOCK, RECORD_CALLBACK } from '../../src/views/ids';
import { muteEveryoneModal } from '../../src/views/modals';
import { sipAuthModal } from '../../src/views/sip';
import { storageModal } from '../../src/views/storage';
import { layoutClassesModal } from '../../src/views/streams';
import type { RequiredRole, Role } from '../../src/rbac/roles';
import { BOT_TOKEN, TEAM, startTestApp, type TestApp } from '../harness/app';
import type { RecordedCall, RecordedResponse } from '../harness/fake-slack';
import { findElements, renderedText } from '../harness/text';

const STAGE = 'C0STAGEROOM';
const DEFAULT = 'C0DEFAULTROOM';
const PEOPLE = { channelMod: 'U0CHANMOD', prodMod: 'U0PRODMOD', stranger: 'U0STRANGER', admin: 'U0BOSS' } as const;
type Person = keyof typeof PEOPLE;
type Project = 'prod' | 'staging';
const PROJECTS: readonly Project[] = ['prod', 'staging'];
const CHANNELS = [STAGE, DEFAULT] as const;

const POLICY = {
  defaultRole: 'none',
  roles: { admin: { users: [PEOPLE.admin] } },
  channels: { [STAGE]: { moderator: { users: [PEOPLE.channelMod] } }, [DEFAULT]: { moderator: { users: [PEOPLE.channelMod] } } },
  projects: { prod: { moderator: { users: [PEOPLE.prodMod] } } },
};

/** The projects each channel uses, as configured below. */
const USES: Record<string, Project[]> = { [STAGE]: ['staging'], [DEFAULT]: ['prod'] };

/** What `person` holds acting in `channel` (undefined: a shortcut or its form) on `project`. */
function holds(person: Person, channel: string | undefined, project: Project): Role {
  if (person === 'admin') return 'admin';
  if (person === 'prodMod') return project === 'prod' ? 'moderator' : 'none';
  if (person === 'channelMod') return channel !== undefined && USES[channel]!.includes(project) ? 'moderator' : 'none';
  return 'none';
}

const RANK: Record<Role, number> = { none: 0, viewer: 1, moderator: 2, admin: 3 };
const expected = (person: Person, channel: string | undefined, project: Project, required: RequiredRole) =>
  RANK[holds(person, channel, project)] >= RANK[required] ? 'allowed' : 'denied';
const DENIAL = /:no_entry: `[^`]+` needs the \w+ role; you are /;

describe('role matrix across projects: people × channels × projects', () => {
  let t: TestApp;
  const sessions = {} as Record<Project, { sessionId: string; streams: string[]; connections: string[] }>;
  const losers: Promise<unknown>[] = [];

  beforeAll(async () => {
    t = await startTestApp({ policy: POLICY, extraProjects: [{ name: 'staging', channels: [STAGE] }] });
    sessions.prod = t.seedSession({ streams: 3 });
    sessions.staging = t.seedSession({ streams: 3, apiKey: t.services.projects.configured('staging')!.apiKey });
    for (const project of PROJECTS) {
      const since = t.slack.mark();
      await t.slash('/video', `alias ${project}-room ${sessions[project].sessionId} --project ${project}`, { user: PEOPLE.admin, channel: DEFAULT });
      await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === DEFAULT, { since });
    }
  });
  afterAll(async () => {
    await Promise.all(losers);
    await t.close();
  });

  async function firstAnswer(responseId: string, since: number): Promise<RecordedResponse | RecordedCall> {
    const waits: Promise<RecordedResponse | RecordedCall>[] = [
      t.slack.waitForResponse(responseId, undefined, { timeoutMs: 5_000 }),
      ...['views.open', 'chat.postMessage', 'chat.postEphemeral'].map((method) => t.slack.waitForCall(method, undefined, { since, timeoutMs: 5_000 })),
    ];
    try {
      return await Promise.race(waits);
    } finally {
      losers.push(...waits.map((wait) => wait.catch(() => undefined)));
    }
  }

  /** [form, argument text (`{session}`, `{alias}`, `{stream}`), role needed]. `{flag}` is `--project <project>`. */
  const COMMANDS: readonly [string, string, RequiredRole][] = [
    ['/mute', '{stream} {session} {flag}', 'moderator'],
    ['/mute', '{stream} {alias}', 'moderator'],
    ['/mute-all', '{session} {flag}', 'moderator'],
    ['/unmute-all', '{alias}', 'moderator'],
    ['/signal', '{session} chat hello {flag}', 'moderator'],
    ['/streams', '{alias}', 'viewer'],
    ['/record', 'list {alias}', 'viewer'],
  ];

  it.each(COMMANDS)('%s %s (needs %s)', async (command, args, required) => {
    const got: string[] = [];
    const want: string[] = [];
    for (const project of PROJECTS) {
      for (const channel of CHANNELS) {
        for (const person of Object.keys(PEOPLE) as Person[]) {
          const s = sessions[project];
          const text = args
            .replace('{session}', s.sessionId)
            .replace('{alias}', `${project}-room`)
            .replace('{stream}', s.streams[0]!)
            .replace('{flag}', `--project ${project}`);
          const since = t.slack.mark();
          const res = await t.slash(command, text, { user: PEOPLE[person], channel });
          const answer = await firstAnswer(res.responseId, since);
          const cell = `${project} ${channel} ${person}`;
          got.push(`${cell}: ${DENIAL.test(renderedText(answer.body)) ? 'denied' : 'allowed'}`);
          want.push(`${cell}: ${expected(person, channel, project, required)}`);
        }
      }
    }
    expect(got).toEqual(want);
  });

  it('the Mute everyone shortcut: only project and global grants open the form', async () => {
    for (const person of Object.keys(PEOPLE) as Person[]) {
      const since = t.slack.mark();
      const { triggerId } = await t.shortcut(CALLBACK.muteEveryoneShortcut, { user: PEOPLE[person] });
      const opened = await t.waitForSlackCall('views.open', (c) => c.body.trigger_id === triggerId, { since });
      const moderatesSome = PROJECTS.some((p) => expected(person, undefined, p, 'moderator') === 'allowed');
      expect({ person, form: findElements(opened.body.view, ACTION.sessionPicker).length > 0 }).toEqual({ person, form: moderatesSome });
      expect({ person, denied: DENIAL.test(renderedText(opened.body.view)) }).toEqual({ person, denied: !moderatesSome });
    }
  });

  const option = (value: string) => ({ text: { type: 'plain_text', text: value }, value });
  const picked = (project: Project) => ({
    type: 'external_select',
    selected_option: { text: { type: 'plain_text', text: 'x' }, value: encodeSessionOption(project, sessions[project].sessionId) },
  });
  let layoutRound = 0;

  /** Each form as the app opens it (acting channel `c`, project `p`), and a valid submission of it. */
  const FORMS: readonly {
    name: string;
    callbackId: string;
    required: RequiredRole;
    shortcut?: boolean;
    view(c: string, p: Project): ModalView;
    values(p: Project): Record<string, Record<string, unknown>>;
  }[] = [
    {
      name: 'record start',
      callbackId: RECORD_CALLBACK.startModal,
      required: 'moderator',
      view: (c) => recordStartModal(EMPTY_START_FORM, { c }),
      values: (p) => ({
        [BLOCK.sessionPicker]: { [ACTION.sessionPicker]: picked(p) },
        [RECORD_BLOCK.name]: { [RECORD_ACTION.field]: { type: 'plain_text_input', value: '' } },
        [RECORD_BLOCK.outputMode]: { [RECORD_ACTION.outputMode]: { type: 'radio_buttons', selected_option: option('composed') } },
        [RECORD_BLOCK.streamMode]: { [RECORD_ACTION.field]: { type: 'radio_buttons', selected_option: option('auto') } },
        [RECORD_BLOCK.media]: { [RECORD_ACTION.field]: { type: 'checkboxes', selected_options: [option('audio'), option('video')] } },
        [RECORD_BLOCK.tag]: { [RECORD_ACTION.field]: { type: 'plain_text_input', value: `m${++layoutRound}` } },
      }),
    },
    {
      name: 'broadcast start',
      callbackId: CALLBACK.broadcastStartModal,
      required: 'moderator',
      view: (c) => broadcastStartModal({ metadata: { c, r: 1 } }),
      values: (p) => ({
        [BROADCAST_BLOCK.session]: { [ACTION.sessionPicker]: picked(p) },
        [BROADCAST_BLOCK.hls]: { [ACTION.broadcastInput]: { type: 'radio_buttons', selected_option: option('standard') } },
        [BROADCAST_BLOCK.tag]: { [ACTION.broadcastInput]: { type: 'plain_text_input', value: `m${++layoutRound}` } },
      }),
    },
    {
      name: 'layout classes',
      callbackId: CALLBACK.layoutClassesModal,
      required: 'moderator',
      view: (c, p) =>
        layoutClassesModal({ projectName: p, sessionId: sessions[p].sessionId }, [{ id: sessions[p].streams[1]!, name: 'Bob', layoutClassList: [] }], c),
      values: (p) => ({
        [`${BLOCK.layoutStreamPrefix}${sessions[p].streams[1]}`]: {
          [ACTION.layoutClassesInput]: { type: 'plain_text_input', value: `focus r${++layoutRound}` },
        },
      }),
    },
    {
      name: 'dial with credentials',
      callbackId: CALLBACK.sipAuthModal,
      required: 'moderator',
      view: (c, p) => sipAuthModal({ p, s: sessions[p].sessionId, c, u: 'sip:+15551234567@sip.example.com' }),
      values: () => ({
        [BLOCK.sipAuthUsername]: { [ACTION.sipAuthUsername]: { type: 'plain_text_input', value: 'vidops' } },
        [BLOCK.sipAuthPassword]: { [ACTION.sipAuthPassword]: { type: 'plain_text_input', value: 'pw-123456' } },
      }),
    },
    {
      name: 'record storage',
      callbackId: RECORD_CALLBACK.storageModal,
      required: 'admin',
      view: (c, p) => storageModal({ type: 's3', fallback: 'none' }, { p, c }),
      values: () => ({
        [RECORD_BLOCK.storageType]: { [RECORD_ACTION.storageType]: { type: 'radio_buttons', selected_option: option('s3') } },
        [RECORD_BLOCK.accessKey]: { [RECORD_ACTION.field]: { type: 'plain_text_input', value: 'AKIAEXAMPLE' } },
        [RECORD_BLOCK.secretKey]: { [RECORD_ACTION.field]: { type: 'plain_text_input', value: 'secret-123456' } },
        [RECORD_BLOCK.bucket]: { [RECORD_ACTION.field]: { type: 'plain_text_input', value: 'recordings' } },
        [RECORD_BLOCK.endpoint]: { [RECORD_ACTION.field]: { type: 'plain_text_input', value: 'https://s3.example.com' } },
        [RECORD_BLOCK.fallback]: { [RECORD_ACTION.field]: { type: 'radio_buttons', selected_option: option('none') } },
      }),
    },
    {
      name: 'mute everyone (the shortcut’s form; its channel only told)',
      callbackId: CALLBACK.muteEveryoneModal,
      required: 'moderator',
      shortcut: true,
      view: () => muteEveryoneModal(),
      values: (p) => ({
        [BLOCK.sessionPicker]: { [ACTION.sessionPicker]: picked(p) },
        [BLOCK.noticeChannel]: { [ACTION.noticeChannel]: { type: 'conversations_select', selected_conversation: STAGE } },
      }),
    },
  ];

  async function openInSlack(view: unknown): Promise<string> {
    const res = await fetch(`${t.slack.apiUrl}views.open`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BOT_TOKEN}`, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ trigger_id: 'test.trigger', view }),
    });
    return ((await res.json()) as { view: { id: string } }).view.id;
  }

  it.each(FORMS.map((form) => [form.name, form] as const))('the %s form', async (_name, form) => {
    const got: string[] = [];
    const want: string[] = [];
    for (const project of PROJECTS) {
      for (const channel of CHANNELS) {
        for (const person of Object.keys(PEOPLE) as Person[]) {
          const view = form.view(channel, project);
          const viewId = await openInSlack(view);
          const since = t.slack.mark();
          const ack = await t.submitView(
            {
              callbackId: form.callbackId,
              viewId,
              privateMetadata: view.private_metadata ?? '',
              blocks: view.blocks as unknown[],
              values: form.values(project),
            },
            { user: PEOPLE[person] },
          );
          expect(ack.body).not.toEqual(expect.objectContaining({ response_action: 'errors' }));
          const shown = await t.waitForSlackCall('views.update', (c) => c.body.view_id === viewId && !/hourglass|Checking/.test(renderedText(c.body)), {
            since,
          });
          const cell = `${project} ${channel} ${person}`;
          got.push(`${cell}: ${DENIAL.test(renderedText(shown.body)) ? 'denied' : 'allowed'}`);
          want.push(`${cell}: ${expected(person, form.shortcut ? undefined : channel, project, form.required)}`);
          if (DENIAL.test(renderedText(shown.body))) {
            const [audit] = await t.store.listAudit(TEAM, 1);
            expect(audit).toEqual(expect.objectContaining({ userId: PEOPLE[person], projectName: project, outcome: 'denied' }));
          }
        }
      }
    }
    expect(got).toEqual(want);
  });
});
