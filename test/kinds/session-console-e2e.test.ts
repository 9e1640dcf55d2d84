/**
 * The session console and people by name end to end: the real Bolt app over signed HTTP, the
 * fake Slack, the emulator (REST and Insights) and the poller on the emulator's clock.
 */
import { ACTION } from '../../src/views/ids';
import { USERS, type Seeded, type TestApp, startTestApp } from '../harness/app';
import { sentPayloadProblems } from '../harness/block-kit';
import { buttonValue, findElements, renderedText, visibleText } from '../harness/text';
import { card, threadTexts, waitForWatch } from '../poller-e2e/helpers';

const MINUTE = 60_000;

describe('the session console', () => {
  let t: TestApp;
  let n = 0;
  beforeAll(async () => {
    t = await startTestApp({ poller: true });
    t.emulator.control.setAdvancedInsights(t.project.apiKey, true);
  });
  afterAll(async () => {
    expect(sentPayloadProblems(t.slack.calls, t.slack.responses)).toEqual([]);
    await t.close();
  });

  /** A session named by an alias that is the default of a channel of its own (set with `/video use`). */
  async function room(names: string[]): Promise<{ seeded: Seeded; alias: string; channel: string }> {
    n += 1;
    const alias = `standup${n}`;
    const channel = `C0ROOM${n}`;
    const seeded = t.seedSession({ streams: names.length, names });
    await t.store.putAlias({ teamId: 'T0TEST', alias, projectName: 'prod', sessionId: seeded.sessionId, createdBy: USERS.admin, createdAt: 0 });
    const since = t.slack.mark();
    await t.slash('/video', `use ${alias}`, { user: USERS.moderator, channel });
    await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === channel, { since });
    return { seeded, alias, channel };
  }

  async function consoleOf(channel: string, user: string = USERS.moderator) {
    const res = await t.slash('/streams', '', { user, channel });
    const reply = await res.waitForResponse();
    expect(reply.body.response_type).toBe('ephemeral');
    return { body: reply.body, text: renderedText(reply.body), responseUrl: res.responseUrl, responseId: res.responseId };
  }

  const session = (seeded: Seeded) => t.emulator.control.getSession(t.project.apiKey, seeded.sessionId);

  it('/streams on the channel’s default session names it by its alias, the raw ID only in a context line', async () => {
    const { seeded, alias, channel } = await room(['Alice', 'Bob']);
    const { body, text } = await consoleOf(channel);
    const blocks = (body as { blocks: { type: string; text?: { text: string } }[] }).blocks;
    expect(blocks[0]).toEqual(expect.objectContaining({ type: 'header', text: expect.objectContaining({ text: alias }) }));
    expect(visibleText(blocks.filter((b) => b.type !== 'context'))).not.toContain(seeded.sessionId);
    expect(visibleText(blocks.filter((b) => b.type === 'context'))).toContain(`session ID \`${seeded.sessionId}\``);
    expect(text).toContain('*Alice* · :movie_camera: camera');
    expect(text).toContain('*Bob* · :movie_camera: camera');
    expect(findElements(body, ACTION.muteStream)).toHaveLength(2);
    expect(findElements(body, ACTION.consoleKick)).toHaveLength(2);
    expect(findElements(body, ACTION.consoleMuteAll)).toHaveLength(1);
    expect(findElements(body, ACTION.consolePost)).toHaveLength(1);
    expect(findElements(body, ACTION.editLayoutClasses)).toHaveLength(1);
    // Kick is irreversible: Slack's dialog names the person and the session.
    const [kick] = findElements(body, ACTION.consoleKick) as { confirm?: { title: { text: string }; text: { text: string } } }[];
    expect(kick!.confirm?.title.text).toBe('Disconnect Alice?');
    expect(kick!.confirm?.text.text).toContain(`\`${alias}\``);
    // Mute everyone is reversible: it acts at once.
    expect(findElements(body, ACTION.consoleMuteAll)[0]).not.toHaveProperty('confirm');
  });

  it('after /mute <name> the console says who muted that participant (and not before)', async () => {
    const { seeded, channel } = await room(['Alice', 'Bob']);
    const before = await consoleOf(channel);
    expect(before.text).not.toContain('muted by');
    expect(before.text).toContain('Muted means vidops muted them then');

    const since = t.slack.mark();
    await t.slash('/mute', 'bOB', { user: USERS.moderator, channel });
    await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === channel, { since });
    expect(session(seeded).streams.map((s) => [s.name, s.muted])).toEqual([
      ['Alice', false],
      ['Bob', true],
    ]);

    const after = await consoleOf(channel);
    const bobRow = after.text.split('*Bob*')[1]!.split('\n').slice(0, 2).join('\n');
    expect(bobRow).toMatch(new RegExp(`:mute: muted by <@${USERS.moderator}> at <!date\\^\\d+\\^\\{time\\}\\|\\d\\d:\\d\\d UTC> via /mute`));
    expect(after.text.split('*Alice*')[1]!.split('\n')[1]).toBe(':speaker: no mute from vidops');
  });

  it('/kick Bob asks once, naming Bob, all his streams and the session; Disconnect drops his connection', async () => {
    const { seeded, alias, channel } = await room(['Alice', 'Bob']);
    t.emulator.control.publish(t.project.apiKey, seeded.sessionId, seeded.connections[1]!, { name: 'Screen', videoType: 'screen' });
    t.emulator.control.advanceTime(6 * MINUTE); // Insights shows publishers about 5 minutes late

    const res = await t.slash('/kick', 'bob', { user: USERS.moderator, channel });
    const cardReply = await res.waitForResponse();
    expect(renderedText(cardReply.body)).toContain(`Disconnect *Bob (camera, screen)* from \`${alias}\`?`);
    const [disconnect] = findElements(cardReply.body, ACTION.kickPerson);
    expect(disconnect).not.toHaveProperty('confirm'); // the card is the one confirmation
    expect(session(seeded).connections.every((c) => c.connected)).toBe(true);

    const since = t.slack.mark();
    await t.click(ACTION.kickPerson, buttonValue(cardReply.body, ACTION.kickPerson), { user: USERS.moderator, channel, responseUrl: res.responseUrl });
    const notice = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === channel, { since });
    expect(renderedText(notice.body)).toContain(`<@${USERS.moderator}> disconnected *Bob (camera, screen)* from session \`${alias}\`.`);
    const connections = session(seeded).connections;
    expect(connections.find((c) => c.connectionId === seeded.connections[1])?.connected).toBe(false);
    expect(connections.find((c) => c.connectionId === seeded.connections[0])?.connected).toBe(true);
  });

  it('Kick on a console row (after Slack’s one dialog) disconnects that participant’s connection', async () => {
    const { seeded, alias, channel } = await room(['Alice', 'Bob']);
    t.emulator.control.advanceTime(6 * MINUTE);
    const shown = await consoleOf(channel);
    const since = t.slack.mark();
    await t.click(ACTION.consoleKick, buttonValue(shown.body, ACTION.consoleKick), { user: USERS.moderator, channel, responseUrl: shown.responseUrl });
    const notice = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === channel, { since });
    expect(renderedText(notice.body)).toContain(`disconnected *Alice (camera)* from session \`${alias}\``);
    expect(session(seeded).connections.map((c) => c.connected)).toEqual([false, true]);
  });

  it('/kick <name> says what to paste instead while Insights cannot name the connection', async () => {
    const { seeded, channel } = await room(['Chidi']);
    const res = await t.slash('/kick', 'chidi', { user: USERS.moderator, channel });
    const text = renderedText((await res.waitForResponse()).body);
    expect(text).toContain('so nobody was disconnected');
    expect(text).toContain('Insights does not have this session yet');
    expect(text).toContain('or give the connection ID');
    expect(session(seeded).connections.every((c) => c.connected)).toBe(true);
  });

  it('an ambiguous name gets a picker; picking mutes that one', async () => {
    const { seeded, channel } = await room(['Bob', 'Bobby', 'Alice']);
    const res = await t.slash('/mute', 'bo', { user: USERS.moderator, channel });
    const picker = await res.waitForResponse();
    const buttons = findElements(picker.body, ACTION.pickParticipant) as { text: { text: string }; value: string }[];
    expect(buttons.map((b) => b.text.text)).toEqual([`Bob · camera · ${seeded.streams[0]!.slice(0, 8)}`, `Bobby · camera · ${seeded.streams[1]!.slice(0, 8)}`]);
    expect(session(seeded).streams.some((s) => s.muted)).toBe(false);

    await t.click(ACTION.pickParticipant, buttons[1]!.value, { user: USERS.moderator, channel, responseUrl: res.responseUrl });
    const done = await res.waitForResponse((r) => renderedText(r.body).includes('Muted *Bobby*'));
    expect(done.body.replace_original).toBe(true);
    expect(session(seeded).streams.map((s) => [s.name, s.muted])).toEqual([
      ['Bob', false],
      ['Bobby', true],
      ['Alice', false],
    ]);
  });

  it('nobody by that name: who is there, and an example', async () => {
    const { channel } = await room(['Alice', 'Bob']);
    const res = await t.slash('/mute', 'zed', { user: USERS.moderator, channel });
    expect(renderedText((await res.waitForResponse()).body)).toContain('Nobody in `standup');
    expect(renderedText((await res.waitForResponse()).body)).toContain('Here now: Alice, Bob.');
  });

  it('Mute and Mute everyone on the private console draw it again in place, the mute on the row clicked', async () => {
    const { seeded, channel } = await room(['Alice', 'Bob']);
    const shown = await consoleOf(channel);
    let since = t.slack.mark();
    await t.click(ACTION.muteStream, buttonValue(shown.body, ACTION.muteStream), { user: USERS.moderator, channel, responseUrl: shown.responseUrl });
    const redrawn = await t.slack.waitForResponse(shown.responseId, (r) => r.body.replace_original === true, { since });
    const alice = renderedText(redrawn.body).split('*Alice*')[1]!.split('\n')[1];
    expect(alice).toMatch(new RegExp(`^:mute: muted by <@${USERS.moderator}> at .* via the Mute button$`));
    expect(renderedText(redrawn.body).split('*Bob*')[1]!.split('\n')[1]).toBe(':speaker: no mute from vidops');
    expect(session(seeded).streams.map((st) => st.muted)).toEqual([true, false]);

    since = t.slack.mark();
    await t.click(ACTION.consoleMuteAll, buttonValue(redrawn.body, ACTION.consoleMuteAll), { user: USERS.moderator, channel, responseUrl: shown.responseUrl });
    const again = await t.slack.waitForResponse(shown.responseId, (r) => r.body.replace_original === true, { since });
    expect(renderedText(again.body).split('*Bob*')[1]!.split('\n')[1]).toMatch(/^:mute: muted by .* via Mute everyone$/);
  });

  it('Mute everyone on the console acts at once; /mute-all and /unmute-all are noted too, and the console words each', async () => {
    const { seeded, alias, channel } = await room(['Alice', 'Bob']);
    const first = await consoleOf(channel);
    let since = t.slack.mark();
    await t.click(ACTION.consoleMuteAll, buttonValue(first.body, ACTION.consoleMuteAll), { user: USERS.moderator, channel, responseUrl: first.responseUrl });
    await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === channel, { since });
    expect(session(seeded).mute.active).toBe(true);
    let text = (await consoleOf(channel)).text;
    expect(text).toMatch(new RegExp(`:mute: Everyone in \`${alias}\` muted by <@${USERS.moderator}> at .* via Mute everyone;`));
    expect(text.split('*Bob*')[1]!.split('\n')[1]).toMatch(/^:mute: muted by .* via Mute everyone$/);

    since = t.slack.mark();
    await t.slash('/unmute-all', '', { user: USERS.admin, channel });
    await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === channel, { since });
    text = (await consoleOf(channel)).text;
    expect(text).toContain(`Mute everyone turned off by <@${USERS.admin}>`);
    expect(text.split('*Bob*')[1]!.split('\n')[1]).toBe(':speaker: no mute from vidops');

    // Mute everyone is reversible: /mute-all acts at once (its notice has Undo).
    since = t.slack.mark();
    await t.slash('/mute-all', `--except ${seeded.streams[0]}`, { user: USERS.moderator, channel });
    await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === channel, { since });
    text = (await consoleOf(channel)).text;
    expect(text).toMatch(/via \/mute-all \(except Alice\)/);
    expect(text.split('*Alice*')[1]!.split('\n')[1]).toBe(':speaker: spared when everyone was muted');
  });

  it('/streams --post: a live card the poller keeps current, redrawn at once after a mute, ended when the session is empty', async () => {
    const { seeded, alias, channel } = await room(['Alice', 'Bob']);
    const since = t.slack.mark();
    await t.slash('/streams', '--post', { user: USERS.viewer, channel });
    await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === channel, { since });
    const watch = await waitForWatch(t, { kind: 'session-console', sessionId: seeded.sessionId });
    const ts = watch.messageTs!;
    let text = renderedText(card(t, ts, channel));
    expect(text).toContain('2 participants');
    expect(text).toContain(`Posted by <@${USERS.viewer}>`);
    expect(findElements(card(t, ts, channel), ACTION.consolePost)).toEqual([]);

    // A mute redraws the posted console at once, not at the next poll.
    const muted = t.slack.mark();
    await t.click(ACTION.muteStream, buttonValue(card(t, ts, channel), ACTION.muteStream), { user: USERS.moderator, channel, messageTs: ts });
    await t.waitForSlackCall('chat.postMessage', (c) => c.body.thread_ts === ts, { since: muted });
    text = renderedText(card(t, ts, channel));
    expect(text.split('*Alice*')[1]!.split('\n')[1]).toMatch(new RegExp(`^:mute: muted by <@${USERS.moderator}> at .* via the Mute button$`));
    expect(threadTexts(t, ts, channel)).toEqual([`Muted Alice by <@${USERS.moderator}>`]);

    // Bob leaves: the next poll draws the card without him and says so in its thread.
    t.emulator.control.disconnect(t.project.apiKey, seeded.sessionId, seeded.connections[1]!);
    await t.poller!.step(20_000);
    text = renderedText(card(t, ts, channel));
    expect(text).toContain('1 participant ');
    expect(text).not.toContain('*Bob*');
    expect(text).toContain(`:mute: muted by <@${USERS.moderator}>`); // the mute state survives the poll
    expect(threadTexts(t, ts, channel).at(-1)).toBe('Left: Bob');

    // Carol joins.
    const carol = t.emulator.control.connect(t.project.apiKey, seeded.sessionId);
    t.emulator.control.publish(t.project.apiKey, seeded.sessionId, carol, { name: 'Carol', videoType: 'screen' });
    await t.poller!.step(20_000);
    expect(renderedText(card(t, ts, channel))).toContain('*Carol* · :desktop_computer: screen');
    expect(threadTexts(t, ts, channel).at(-1)).toBe('Joined: Carol');

    // Everyone leaves: the card says so and drops its buttons; the watch ends.
    t.emulator.control.disconnect(t.project.apiKey, seeded.sessionId, seeded.connections[0]!);
    t.emulator.control.disconnect(t.project.apiKey, seeded.sessionId, carol);
    await t.poller!.step(20_000);
    const ended = card(t, ts, channel);
    expect(renderedText(ended)).toContain(`Nobody publishes in \`${alias}\` any more; this console stopped updating`);
    expect(findElements(ended, ACTION.muteStream)).toEqual([]);
    expect(findElements(ended, ACTION.consoleKick)).toEqual([]);
    expect(findElements(ended, ACTION.consoleMuteAll)).toEqual([]);
    expect(await t.store.listWatches({ kind: 'session-console', sessionId: seeded.sessionId })).toEqual([]);
  });

  it('a posted console stops after an hour, says so and drops its buttons', async () => {
    const { seeded, channel } = await room(['Alice']);
    const since = t.slack.mark();
    await t.slash('/streams', '--post', { user: USERS.moderator, channel });
    await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === channel, { since });
    const watch = await waitForWatch(t, { kind: 'session-console', sessionId: seeded.sessionId });
    await t.poller!.step(61 * MINUTE);
    const last = card(t, watch.messageTs!, channel);
    expect(renderedText(last)).toContain('a posted console is kept current for an hour');
    expect(findElements(last, ACTION.muteStream)).toEqual([]);
    expect(threadTexts(t, watch.messageTs!, channel).at(-1)).toContain('This console stopped updating');
  });
});
