/**
 * End to end: /video-admin when the set-up is incomplete — no account credentials (every
 * subcommand says what to set), no VIDOPS_SECRET_KEY (create and rotate-secret refuse without
 * calling the service), and account credentials the service refuses (403).
 */
import { randomBytes } from 'node:crypto';
import { ACTION } from '../../src/views/ids';
import { encodeValue } from '../../src/views/values';
import { TEAM, USERS, startTestApp, type TestApp } from '../harness/app';
import { sentPayloadProblems } from '../harness/block-kit';
import { renderedText } from '../harness/text';

const ADMIN = { user: USERS.admin };
const SUBCOMMANDS = ['projects', 'project prod', 'create Demo', 'suspend prod', 'activate prod', 'delete prod', 'rotate-secret prod'];

/** Account-level calls the emulator received (project administration). */
const adminCalls = (t: TestApp) => t.emulator.control.requestLog().filter((e) => /^\/v2\/project(\/[^/]+(\/refreshSecret)?)?$/.test(e.path));

async function answer(t: TestApp, text: string): Promise<string> {
  const res = await t.slash('/video-admin', text, ADMIN);
  const reply = await res.waitForResponse();
  expect(reply.body.response_type).toBe('ephemeral');
  return renderedText(reply.body);
}

describe('/video-admin without account credentials', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ secretKey: randomBytes(32) });
  });
  afterAll(async () => {
    expect(sentPayloadProblems(t.slack.calls, t.slack.responses)).toEqual([]);
    await t.close();
  });

  it.each(SUBCOMMANDS)('`%s` explains which variables to set and calls nothing', async (text) => {
    const reply = await answer(t, text);
    const sub = text.split(' ')[0];
    expect(reply).toContain(`\`/video-admin ${sub}\` needs the video account's administrator credentials, and vidops has none.`);
    expect(reply).toContain('sets VIDEO_ACCOUNT_API_KEY and VIDEO_ACCOUNT_API_SECRET');
    expect(reply).toContain('Nothing was changed.');
    expect(adminCalls(t)).toEqual([]);
  });

  it('still checks the role first: a moderator is denied, and that is audited', async () => {
    const res = await t.slash('/video-admin', 'projects');
    const reply = await res.waitForResponse();
    expect(renderedText(reply.body)).toContain('needs the admin role');
    const [audit] = await t.store.listAudit(TEAM, 1);
    expect(audit).toEqual(expect.objectContaining({ command: '/video-admin projects', outcome: 'denied' }));
  });
});

describe('/video-admin without VIDOPS_SECRET_KEY', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ account: true });
  });
  afterAll(async () => {
    expect(sentPayloadProblems(t.slack.calls, t.slack.responses)).toEqual([]);
    await t.close();
  });

  it.each(['create Demo', 'create', 'rotate-secret prod'])('`%s` refuses with the reason and what to set; no service call', async (text) => {
    const before = adminCalls(t).length;
    const reply = await answer(t, text);
    expect(reply).toContain(`\`/video-admin ${text.split(' ')[0]}\` was refused`);
    expect(reply).toContain('never shows in Slack and must store encrypted');
    expect(reply).toContain('sets VIDOPS_SECRET_KEY to 32 random bytes');
    expect(reply).toContain('Nothing was changed.');
    expect(adminCalls(t).length).toBe(before);
  });

  it('refuses a Create or Rotate button from an older card too, without calling the service', async () => {
    const secret = t.emulator.control.getProject(t.project.apiKey).secret;
    for (const [actionId, value] of [
      [ACTION.adminCreateProject, encodeValue({ n: 'From an old card' })],
      [ACTION.adminRotateSecret, encodeValue({ k: t.project.apiKey, n: 'prod' })],
    ] as const) {
      const responseUrl = t.slack.newResponseUrl();
      const { responseId } = await t.click(actionId, value, { ...ADMIN, responseUrl });
      const reply = await t.slack.waitForResponse(responseId);
      expect(renderedText(reply.body)).toContain('sets VIDOPS_SECRET_KEY');
    }
    expect(adminCalls(t)).toEqual([]);
    expect(t.emulator.control.getProject(t.project.apiKey).secret).toBe(secret);
  });

  it('the other subcommands work: projects lists, suspend asks', async () => {
    expect(await answer(t, 'projects')).toContain('Projects of the account (1)');
    expect(await answer(t, 'suspend prod')).toContain(`Suspend project *prod* (\`${t.project.apiKey}\`)?`);
  });
});

describe('/video-admin with account credentials the service refuses', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ account: { apiKey: '10000001', apiSecret: 'not-the-account-secret' }, secretKey: randomBytes(32) });
  });
  afterAll(async () => {
    await t.close();
  });

  it('says the account credentials are not an account administrator’s (403)', async () => {
    const reply = await answer(t, 'projects');
    expect(reply).toContain(
      'The video service refused the account credentials: VIDEO_ACCOUNT_API_KEY does not belong to a registered account administrator, or VIDEO_ACCOUNT_API_SECRET is wrong.',
    );
    expect(adminCalls(t)).toEqual([expect.objectContaining({ method: 'GET', path: '/v2/project', status: 403 })]);
  });

  it('audits a confirmed change the service refuses, and says nothing was changed', async () => {
    const responseUrl = t.slack.newResponseUrl();
    const { responseId } = await t.click(ACTION.adminCreateProject, encodeValue({ n: 'Denied' }), { ...ADMIN, responseUrl });
    const reply = await t.slack.waitForResponse(responseId);
    expect(renderedText(reply.body)).toContain('refused the account credentials');
    expect(renderedText(reply.body)).toContain('Nothing was changed.');
    const [audit] = await t.store.listAudit(TEAM, 1);
    expect(audit).toEqual(
      expect.objectContaining({ command: '/video-admin create', outcome: 'error', error: 'VideoAuthError 403', target: 'new project Denied' }),
    );
  });
});
