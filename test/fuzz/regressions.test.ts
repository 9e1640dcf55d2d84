/** One example per bug the fuzzing found, so each stays fixed even if the seed or generators change. */
import { COMMANDS, beforeAck } from '../../src/commands';
import { tokenize } from '../../src/commands/grammar';
import { muteCommand } from '../../src/commands/mute';
import { classListProblem } from '../../src/views/streams';
import { CHANNEL, USERS, startTestApp, type TestApp } from '../harness/app';
import { renderedText } from '../harness/text';
import { APP_DATE, unsafeMessage } from './safety';

describe('bugs found by fuzzing', () => {
  it('tokenizes a 200,000-character word in linear time (endsWith on the growing word made it quadratic)', () => {
    const started = performance.now();
    const result = tokenize('😀'.repeat(100_000));
    // Quadratic, this took about 40 s; linear, well under one.
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(result).toEqual({ ok: true, tokens: [{ value: '😀'.repeat(100_000), quoted: false }] });
  });

  it('still opens a quote right after = inside a word, also when the = was quoted', () => {
    expect(tokenize(`--name="a="'b c'`)).toEqual({ ok: true, tokens: [{ value: '--name=a=b c', quoted: false }] });
    expect(tokenize(`ab"c d"`)).toEqual({
      ok: true,
      tokens: [
        { value: 'ab"c', quoted: false },
        { value: 'd"', quoted: false },
      ],
    });
  });

  it('quotes at most 60 characters of a pasted wall of text back, and keeps the whole answer within Slack’s limits', () => {
    const outcome = beforeAck(muteCommand, `s1 session ${'x'.repeat(100_000)}`);
    if (outcome.kind !== 'answer') throw new Error('expected a usage answer');
    expect(outcome.message.text.length).toBeLessThanOrEqual(3000);
    expect(outcome.message.text).toContain(`“${'x'.repeat(59)}…”`);
    expect(unsafeMessage(outcome.message)).toEqual([]);
  });

  it('does not repeat an unknown 100,000-character option or subcommand whole', () => {
    for (const command of COMMANDS) {
      for (const text of [`--${'f'.repeat(100_000)}`, 'q'.repeat(100_000)]) {
        const outcome = beforeAck(command, text);
        if (outcome.kind === 'answer')
          expect({ command: command.command, length: outcome.message.text.length < 3001 }).toEqual({ command: command.command, length: true });
      }
    }
  });

  it('does not quote Slack control sequences back in a layout class error', () => {
    for (const bad of ['<!channel>', '<@U123>', '&lt;!here&gt;', 'a\u0000b', '<https://evil.example|click>']) {
      const problem = classListProblem([bad])!;
      expect(problem).toBe('One of the classes is not a class name: use letters, digits, “-” and “_”.');
      expect(problem).not.toMatch(/[<>]|&lt;/);
      expect(problem).not.toContain('\u0000');
    }
    expect(classListProblem(['bad.class'])).toBe('“bad.class” is not a class name: use letters, digits, “-” and “_”.');
  });
});

describe('bugs found by end-to-end fuzzing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    const seeded = t.seedSession({ streams: 1 });
    const since = t.slack.mark();
    await t.slash('/video', `alias standup ${seeded.sessionId}`);
    await t.waitForSlackCall('chat.postMessage', undefined, { since });
  });
  afterAll(() => t.close());

  it('/video watch with kinds that are a mention does not ping the channel back', async () => {
    // Slack sends what the user typed with <, > and & encoded; the grammar decodes them.
    const res = await t.slash('/video', 'watch standup "&lt;!channel&gt;"');
    const answer = await res.waitForResponse();
    expect(unsafeMessage(answer.body, [`<@${USERS.moderator}>`])).toEqual([]);
    expect(renderedText(answer.body)).toContain('“<!channel>” is not a list of archives, broadcasts, renders');
  });

  it('/video watch of a session typed as a mention keeps the card’s fallback text from pinging', async () => {
    const since = t.slack.mark();
    await t.slash('/video', 'watch x--&lt;#C123|general&gt;&lt;!subteam^S0123|@oncall&gt;');
    const card = await t.waitForSlackCall('chat.postMessage', undefined, { since });
    // The card names who set it up, the channel the command came from and since when: written by the app, not typed.
    expect(unsafeMessage(card.body, [`<@${USERS.moderator}>`, `<#${CHANNEL}>`, APP_DATE])).toEqual([]);
    expect(String(card.body.text)).toContain('session x--&lt;#C123|general&gt;&lt;!subteam^S0123|@oncall&gt;');
  });
});
