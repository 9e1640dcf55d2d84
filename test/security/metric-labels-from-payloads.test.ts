/**
 * Finding 7, "Metric labels from payloads": `vidops_commands_total{command="/anything"}` —
 * unbounded. Now labels come only from known names: any other command or request kind is
 * counted as `other`, while known ones keep their own label.
 */
import { VidopsMetrics } from '../../src/metrics/registry';
import { InFlight } from '../../src/slack/in-flight';
import { knownLabel } from '../../src/slack/instrument';
import { CHANNEL, SIGNING_SECRET, USERS, slashCommandFields, startTestApp, type TestApp } from '../harness/app';
import { signedInteraction, signedSlashCommand } from '../harness/signing';
import { secondApp } from './support';

describe('finding 7: metric labels from payloads', () => {
  let t: TestApp;
  let second: Awaited<ReturnType<typeof secondApp>>;
  const metrics = new VidopsMetrics();
  // A request is counted when its follow-up work ends, after the ack answered the POST.
  const inFlight = new InFlight();

  beforeAll(async () => {
    t = await startTestApp();
    second = await secondApp(t, { metrics, inFlight });
  });
  afterAll(async () => {
    await second.stop();
    await t.close();
  });

  const post = async (request: { headers: Record<string, string>; body: string }) =>
    (await fetch(`${second.url}/slack/events`, { method: 'POST', headers: request.headers, body: request.body })).status;

  it('counts unknown commands and payload types as `other`, known ones by name', async () => {
    for (const command of ['/anything', '/anything-else-12345', '/mute-all-the-things']) {
      const fields = slashCommandFields({
        command,
        text: '',
        user: USERS.viewer,
        channel: CHANNEL,
        responseUrl: t.slack.newResponseUrl(),
        triggerId: `1.${Date.now()}.m`,
      });
      await post(signedSlashCommand(SIGNING_SECRET, fields));
    }
    // A kind the app does not serve is refused at the edge, so it never reaches a label at all.
    expect(await post(signedInteraction(SIGNING_SECRET, { type: 'made_up_kind_987', user: { id: USERS.viewer } }))).toBe(400);
    const helpFields = slashCommandFields({
      command: '/video',
      text: 'help',
      user: USERS.viewer,
      channel: CHANNEL,
      responseUrl: t.slack.newResponseUrl(),
      triggerId: `1.${Date.now()}.h`,
    });
    expect(await post(signedSlashCommand(SIGNING_SECRET, helpFields))).toBe(200);

    expect(await inFlight.idle(10_000)).toBe(true);
    const text = await metrics.scrape();
    const commandLabels = [...text.matchAll(/vidops_commands_total\{command="([^"]*)"/g)].map((m) => m[1]);
    expect(new Set(commandLabels)).toEqual(new Set(['other', '/video']));
    expect(text).not.toMatch(/anything|made_up_kind/);
  });

  it('bounds the request kind label too (Socket Mode hands Bolt whatever type the payload says)', () => {
    const kinds = new Set(['command', 'block_actions']);
    expect(knownLabel('block_actions', kinds)).toBe('block_actions');
    expect(knownLabel('made_up_kind_987', kinds)).toBe('other');
  });
});
