/**
 * End to end: /video-admin against the emulator with account credentials and a secret key —
 * listing and showing projects, create/suspend/activate/delete/rotate-secret behind confirmed
 * buttons, denials, rotation of the app's own projects (it keeps working), and no secret in any
 * Slack call, response, audit record or log line.
 */
import { randomBytes } from 'node:crypto';
import { RETRY_FAST, VideoAuthError, VideoClient } from '../../src/api';
import { SecretBox } from '../../src/crypto';
import { openProjectSecret } from '../../src/secrets/project-secrets';
import { ACTION } from '../../src/views/ids';
import { CHANNEL, TEAM, USERS, startTestApp, type SlashResult, type TestApp } from '../harness/app';
import { sentPayloadProblems } from '../harness/block-kit';
import type { RecordedResponse } from '../harness/fake-slack';
import { buttonValue, findElements, renderedText } from '../harness/text';

const SECRET_KEY = randomBytes(32);
const ADMIN = { user: USERS.admin };
const AUDIT_CHANNEL = 'C0AUDIT';

describe('/video-admin', () => {
  let t: TestApp;
  const logLines: string[] = [];
  /** Every secret the service issued during the tests; none may show up anywhere. */
  const issued: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({
      account: true,
      secretKey: SECRET_KEY,
      auditChannel: AUDIT_CHANNEL,
      extraProjects: [{ name: 'staging' }],
      logLevel: 'trace',
      logStream: { write: (line: string) => logLines.push(line) },
    });
  });
  afterAll(async () => {
    expect(sentPayloadProblems(t.slack.calls, t.slack.responses)).toEqual([]);
    await t.close();
  });

  const key = (name: string) => t.services.projects.configured(name)!.apiKey;
  /** Account-level calls the emulator received (project administration). */
  const adminCalls = () => t.emulator.control.requestLog().filter((e) => /^\/v2\/project(\/[^/]+(\/refreshSecret)?)?$/.test(e.path));
  const replaced = (res: { waitForResponse: SlashResult['waitForResponse'] }) => res.waitForResponse((r: RecordedResponse) => r.body.replace_original === true);

  /** Runs a subcommand as the admin and returns its card. */
  async function card(text: string): Promise<{ res: SlashResult; body: Record<string, unknown> }> {
    const res = await t.slash('/video-admin', text, ADMIN);
    expect(res.status).toBe(200);
    const reply = await res.waitForResponse();
    expect(reply.body.response_type).toBe('ephemeral');
    return { res, body: reply.body };
  }

  /** Clicks the card's button as the admin and waits for the card to be replaced. */
  async function confirm(res: SlashResult, body: unknown, actionId: string): Promise<RecordedResponse> {
    await t.click(actionId, buttonValue(body, actionId), { ...ADMIN, responseUrl: res.responseUrl });
    return replaced(res);
  }

  function newestAudit() {
    return t.store.listAudit(TEAM, 1).then((rows) => rows[0]);
  }

  describe('projects', () => {
    it('lists every project with its key, status and creation, marking the ones vidops uses', async () => {
      const { body } = await card('projects');
      const text = renderedText(body);
      expect(text).toContain('Projects of the account (2)');
      expect(text).toMatch(
        new RegExp(`\\*prod\\* · \`${key('prod')}\` · :large_green_circle: active · created <!date\\^\\d+\\^[^|]+\\|[^>]+> · used by vidops as \\*prod\\*`),
      );
      expect(text).toContain(`\`${key('staging')}\``);
      expect(text).toContain('used by vidops as *staging*');
    });

    it('refuses a moderator, says who can grant the role, and audits the denial; no service call', async () => {
      const before = adminCalls().length;
      const res = await t.slash('/video-admin', 'projects');
      const reply = await res.waitForResponse();
      expect(renderedText(reply.body)).toContain('`/video-admin projects` needs the admin role; you are a moderator');
      expect(await newestAudit()).toEqual(
        expect.objectContaining({ command: '/video-admin projects', outcome: 'denied', userId: USERS.moderator, error: 'needs admin, has moderator' }),
      );
      expect(adminCalls().length).toBe(before);
    });

    it('answers help and usage problems in the ack', async () => {
      const help = await t.slash('/video-admin', 'help', ADMIN);
      expect(renderedText(help.ack)).toContain('/video-admin rotate-secret <key>');
      const usage = await t.slash('/video-admin', 'suspend', ADMIN);
      expect(renderedText(usage.ack)).toContain('<key> is missing');
      const unknown = await t.slash('/video-admin', 'rotate', ADMIN);
      expect(renderedText(unknown.ack)).toContain('did you mean rotate-secret?');
    });
  });

  describe('project <key>', () => {
    it('shows the details with Suspend, Rotate secret and Delete, each behind a confirm dialog; names work too', async () => {
      const { body } = await card('project prod');
      const text = renderedText(body);
      expect(text).toContain(`\`${key('prod')}\``);
      expect(text).toContain(':large_green_circle: active');
      expect(text).toContain('This project is used by vidops as *prod*');
      for (const actionId of [ACTION.adminSuspendProject, ACTION.adminRotateSecret, ACTION.adminDeleteProject]) {
        const [button] = findElements(body, actionId);
        expect(button?.confirm).toEqual(expect.objectContaining({ title: expect.objectContaining({ text: expect.any(String) }) }));
      }
      expect(findElements(body, ACTION.adminActivateProject)).toEqual([]);
    });

    it('explains an unknown key (404) in one sentence', async () => {
      const { body } = await card('project 99999999');
      expect(renderedText(body)).toContain(':warning: There is no project with API key `99999999` in this account; `/video-admin projects` lists them.');
    });
  });

  describe('create', () => {
    it('asks first, then creates the project, stores its secret sealed as project:<key>, and never shows it', async () => {
      const before = adminCalls().length;
      const { res, body } = await card('create "Support calls"');
      expect(renderedText(body)).toContain('*Create a project?* vidops creates a project named *Support calls* in the video account.');
      expect(adminCalls().length).toBe(before);

      const since = t.slack.mark();
      const done = await confirm(res, body, ACTION.adminCreateProject);
      const text = renderedText(done.body);
      const newKey = /API key is `([^`]+)`/.exec(text)?.[1];
      expect(newKey).toBeDefined();
      expect(text).toContain('Its secret was *not shown* here');
      expect(text).toContain(`stored it encrypted as \`project:${newKey}\``);
      expect(text).toContain(`npx tsx src/secrets/cli.ts project:${newKey} --entry <name>`);
      expect(text).toContain('VIDOPS_PROJECTS_FILE');

      const project = t.emulator.control.getProject(newKey!);
      expect(project).toEqual(expect.objectContaining({ name: 'Support calls', status: 'ACTIVE' }));
      issued.push(project.secret);
      const stored = await t.store.getSecret(`project:${newKey}`);
      expect(stored).toBeDefined();
      expect(stored!.ciphertext).not.toContain(project.secret);
      expect(openProjectSecret(new SecretBox(SECRET_KEY), newKey!, stored!.ciphertext)).toEqual({ v: 1, secret: project.secret, replaces: [] });

      const notice = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
      expect(renderedText(notice.body)).toContain(`<@${USERS.admin}> created project *Support calls* (\`${newKey}\`)`);
      expect(await newestAudit()).toEqual(
        expect.objectContaining({ command: '/video-admin create', outcome: 'ok', target: `project ${newKey} (Support calls)` }),
      );
    });

    it('creates a project without a name', async () => {
      const { res, body } = await card('create');
      expect(renderedText(body)).toContain('vidops creates a project without a name in the video account');
      const done = await confirm(res, body, ACTION.adminCreateProject);
      const newKey = /API key is `([^`]+)`/.exec(renderedText(done.body))![1]!;
      issued.push(t.emulator.control.getProject(newKey).secret);
      expect(t.emulator.control.getProject(newKey).name).toBe('');
    });

    it('Cancel removes the card and creates nothing', async () => {
      const { res } = await card('create Never');
      const before = adminCalls().length;
      await t.click(ACTION.cancel, undefined, { ...ADMIN, responseUrl: res.responseUrl });
      const deleted = await res.waitForResponse((r) => r.body.delete_original === true);
      expect(deleted.body).toEqual({ delete_original: true });
      expect(adminCalls().length).toBe(before);
    });

    it('refuses a moderator clicking the button (a card can outlive a role), audited, with no service call', async () => {
      const { res, body } = await card('create Sneaky');
      const before = adminCalls().length;
      await t.click(ACTION.adminCreateProject, buttonValue(body, ACTION.adminCreateProject), { responseUrl: res.responseUrl });
      const denied = await res.waitForResponse((r) => renderedText(r.body).includes('needs the admin role'));
      expect(renderedText(denied.body)).toContain('`/video-admin create` needs the admin role; you are a moderator');
      expect(await newestAudit()).toEqual(
        expect.objectContaining({ command: '/video-admin create', outcome: 'denied', userId: USERS.moderator, target: 'new project Sneaky' }),
      );
      expect(adminCalls().length).toBe(before);
    });
  });

  describe('suspend and activate', () => {
    let target: string;
    beforeAll(() => {
      target = t.emulator.control.createProject({ name: 'Field trials' }).apiKey;
    });

    it('suspends after the confirmation, tells the channel and audits it', async () => {
      const { res, body } = await card(`suspend ${target}`);
      expect(renderedText(body)).toContain(`Suspend project *Field trials* (\`${target}\`)?`);
      expect(t.emulator.control.getProject(target).status).toBe('ACTIVE');
      const since = t.slack.mark();
      const done = await confirm(res, body, ACTION.adminSuspendProject);
      expect(renderedText(done.body)).toContain(`:white_check_mark: Project *Field trials* (\`${target}\`) is suspended.`);
      expect(t.emulator.control.getProject(target).status).toBe('SUSPENDED');
      const notice = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
      expect(renderedText(notice.body)).toContain(`<@${USERS.admin}> suspended project *Field trials*`);
      const auditPost = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === AUDIT_CHANNEL, { since });
      expect(renderedText(auditPost.body)).toContain('/video-admin suspend');
      expect(await newestAudit()).toEqual(
        expect.objectContaining({ command: '/video-admin suspend', outcome: 'ok', target: `project ${target} (Field trials)`, projectName: '' }),
      );
    });

    it('says when there is nothing to do', async () => {
      const { body } = await card(`suspend ${target}`);
      expect(renderedText(body)).toContain(`Project *Field trials* (\`${target}\`) is already suspended; nothing to do.`);
    });

    it('shows Activate on a suspended project’s card, without a dialog (reversible), and its click activates', async () => {
      const shown = await card(`project ${target}`);
      expect(renderedText(shown.body)).toContain(':double_vertical_bar: suspended');
      expect(findElements(shown.body, ACTION.adminSuspendProject)).toEqual([]);
      expect(findElements(shown.body, ACTION.adminActivateProject)[0]).not.toHaveProperty('confirm');
      const done = await confirm(shown.res, shown.body, ACTION.adminActivateProject);
      expect(renderedText(done.body)).toContain('is active');
      expect(t.emulator.control.getProject(target).status).toBe('ACTIVE');
      expect(await newestAudit()).toEqual(expect.objectContaining({ command: '/video-admin activate', outcome: 'ok' }));
    });

    it('typed, activate acts at once (reversible: no card) and tells the channel', async () => {
      await t.services.projects.admin().setStatus(target, 'SUSPENDED');
      const since = t.slack.mark();
      const res = await t.slash('/video-admin', `activate ${target}`, ADMIN);
      const answer = await res.waitForResponse();
      expect(renderedText(answer.body)).toContain(`:white_check_mark: Project *Field trials* (\`${target}\`) is active.`);
      expect(findElements(answer.body, ACTION.adminActivateProject)).toEqual([]);
      expect(t.emulator.control.getProject(target).status).toBe('ACTIVE');
      const notice = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
      expect(renderedText(notice.body)).toContain(`<@${USERS.admin}> activated project *Field trials*`);
    });

    it('warns before suspending a project vidops uses', async () => {
      const { body } = await card('suspend staging');
      expect(renderedText(body)).toContain('vidops uses this project as *staging*; its commands fail while it is suspended');
    });
  });

  describe('delete', () => {
    it('deletes after the confirmation; the project is gone', async () => {
      const target = t.emulator.control.createProject({ name: 'Old pilot' }).apiKey;
      const { res, body } = await card(`delete ${target}`);
      expect(renderedText(body)).toContain('This cannot be undone');
      const done = await confirm(res, body, ACTION.adminDeleteProject);
      expect(renderedText(done.body)).toContain(`:white_check_mark: Project *Old pilot* (\`${target}\`) was deleted.`);
      expect(() => t.emulator.control.getProject(target)).toThrow(/not found/);
      expect(await newestAudit()).toEqual(expect.objectContaining({ command: '/video-admin delete', outcome: 'ok', target: `project ${target} (Old pilot)` }));
    });

    it('explains a project deleted meanwhile (404) when the button is clicked, and audits the error', async () => {
      const target = t.emulator.control.createProject({ name: 'Gone soon' }).apiKey;
      const { res, body } = await card(`delete ${target}`);
      await t.services.projects.admin().delete(target);
      await t.click(ACTION.adminDeleteProject, buttonValue(body, ACTION.adminDeleteProject), { ...ADMIN, responseUrl: res.responseUrl });
      const error = await res.waitForResponse((r) => renderedText(r.body).includes('There is no project'));
      expect(renderedText(error.body)).toContain(
        `:warning: There is no project with API key \`${target}\` in this account; \`/video-admin projects\` lists them. Nothing was changed.`,
      );
      expect(await newestAudit()).toEqual(expect.objectContaining({ command: '/video-admin delete', outcome: 'error', error: 'VideoNotFoundError 404' }));
    });
  });

  describe('rotate-secret', () => {
    it('rotates a project vidops does not use: stored sealed for an operator, never shown', async () => {
      const created = t.emulator.control.createProject({ name: 'Partner app' });
      const { res, body } = await card(`rotate-secret ${created.apiKey}`);
      expect(renderedText(body)).toContain(`vidops stores it encrypted (as \`project:${created.apiKey}\`) for an operator to retrieve`);
      const done = await confirm(res, body, ACTION.adminRotateSecret);
      const fresh = t.emulator.control.getProject(created.apiKey).secret;
      issued.push(created.apiSecret, fresh);
      expect(fresh).not.toBe(created.apiSecret);
      expect(renderedText(done.body)).toContain('was rotated. The new secret was *not shown* here');
      const stored = await t.store.getSecret(`project:${created.apiKey}`);
      expect(openProjectSecret(new SecretBox(SECRET_KEY), created.apiKey, stored!.ciphertext).secret).toBe(fresh);
      expect(await newestAudit()).toEqual(
        expect.objectContaining({ command: '/video-admin rotate-secret', outcome: 'ok', target: `project ${created.apiKey} (Partner app)` }),
      );
    });

    it('rotates the app’s own project: vidops switches at once and keeps working; the old secret is rejected', async () => {
      const seeded = t.seedSession({ streams: 2 });
      // The prod client exists and has signed calls already.
      const since0 = t.slack.mark();
      await t.slash('/mute', `${seeded.streams[0]} ${seeded.sessionId}`);
      await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since: since0 });
      const oldSecret = t.project.apiSecret;

      const { res, body } = await card('rotate-secret prod');
      expect(renderedText(body)).toContain('vidops uses this project as *prod*: it switches to the new secret at once');
      const since = t.slack.mark();
      const done = await confirm(res, body, ACTION.adminRotateSecret);
      const fresh = t.emulator.control.getProject(key('prod')).secret;
      issued.push(oldSecret, fresh);
      expect(fresh).not.toBe(oldSecret);
      expect(renderedText(done.body)).toContain('vidops now signs with it (used by vidops as *prod*)');
      const notice = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
      expect(renderedText(notice.body)).toContain(`<@${USERS.admin}> rotated the API secret of project`);

      // The emulator refuses the old secret…
      const stale = new VideoClient({ baseUrl: t.emulator.baseUrl, apiKey: key('prod'), apiSecret: oldSecret, retry: RETRY_FAST });
      await expect(stale.streams.list(seeded.sessionId)).rejects.toBeInstanceOf(VideoAuthError);
      // …and vidops works with the new one.
      const since2 = t.slack.mark();
      await t.slash('/mute', `${seeded.streams[1]} ${seeded.sessionId}`);
      const muted = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since: since2 });
      expect(renderedText(muted.body)).toContain(`muted stream \`${seeded.streams[1]}\``);
      expect(t.emulator.control.getSession(key('prod'), seeded.sessionId).streams.map((s) => s.muted)).toEqual([true, true]);

      const stored = await t.store.getSecret(`project:${key('prod')}`);
      expect(openProjectSecret(new SecretBox(SECRET_KEY), key('prod'), stored!.ciphertext).secret).toBe(fresh);
      const audits = await t.store.listAudit(TEAM, 5);
      expect(audits.find((a) => a.command === '/video-admin rotate-secret')).toEqual(
        expect.objectContaining({ outcome: 'ok', projectName: 'prod', target: `project ${key('prod')} (prod)` }),
      );
    });

    it('rotates a configured project whose client was never created: the first call already signs with the new secret', async () => {
      const stagingKey = key('staging');
      const oldSecret = t.services.projects.configured('staging')!.apiSecret;
      const { res, body } = await card('rotate-secret staging');
      await confirm(res, body, ACTION.adminRotateSecret);
      issued.push(oldSecret, t.emulator.control.getProject(stagingKey).secret);

      const seeded = t.seedSession({ streams: 1, apiKey: stagingKey });
      const streams = await t.slash('/streams', `${seeded.sessionId} --project staging`);
      const listed = await streams.waitForResponse();
      expect(renderedText(listed.body)).toContain('*Participant 1* · :movie_camera: camera');
      expect(renderedText(listed.body)).not.toMatch(/refused the credentials/);
    });

    it('refuses a moderator clicking Rotate; audited; the secret stays', async () => {
      const created = t.emulator.control.createProject({ name: 'Kept' });
      issued.push(created.apiSecret);
      const { res, body } = await card(`rotate-secret ${created.apiKey}`);
      await t.click(ACTION.adminRotateSecret, buttonValue(body, ACTION.adminRotateSecret), { responseUrl: res.responseUrl });
      await res.waitForResponse((r) => renderedText(r.body).includes('needs the admin role'));
      expect(t.emulator.control.getProject(created.apiKey).secret).toBe(created.apiSecret);
      expect(await newestAudit()).toEqual(expect.objectContaining({ command: '/video-admin rotate-secret', outcome: 'denied', userId: USERS.moderator }));
    });
  });

  describe('secrets', () => {
    it('never appear in any Slack call or response, audit record or log line', async () => {
      expect(issued.length).toBeGreaterThanOrEqual(8);
      for (const secret of issued) expect(secret.length).toBeGreaterThanOrEqual(16);
      const slack = JSON.stringify([t.slack.calls, t.slack.responses]);
      const audit = JSON.stringify(await t.store.listAudit(TEAM, 500));
      const logs = logLines.join('');
      expect(logLines.length).toBeGreaterThan(20);
      expect(logs).toContain('/video-admin');
      for (const secret of issued) {
        expect({ where: 'slack', found: slack.includes(secret) }).toEqual({ where: 'slack', found: false });
        expect({ where: 'audit', found: audit.includes(secret) }).toEqual({ where: 'audit', found: false });
        expect({ where: 'logs', found: logs.includes(secret) }).toEqual({ where: 'logs', found: false });
      }
    });
  });
});
