/**
 * Payload shapes fuzzed through the receiver: signed requests whose bodies are real Slack
 * payloads (a slash command, a click, a form submission, a shortcut, an option search, an App
 * Home event) with a field replaced by any JSON value, removed, or sent twice, or the whole body
 * replaced — sent to the real app over HTTP. Properties: every request is answered at once with
 * 200 (served or acknowledged) or 400 (refused at the edge), never a 5xx and never Bolt's 3 s
 * wait for an ack; the process sees no unhandled rejection; and afterwards a command still works.
 */
import fc from 'fast-check';
import { encodeSessionOption } from '../../src/interaction/session-ref';
import { ACTION, BLOCK, CALLBACK } from '../../src/views/ids';
import { CHANNEL, SIGNING_SECRET, TEAM, USERS, slashCommandFields, startTestApp, type TestApp } from '../harness/app';
import { signBody, signedEvent, signedInteraction } from '../harness/signing';
import { FUZZ_SEED } from './hostile';
import { collectUnhandledRejections } from '../security/support';

const RUNS = Number(process.env.FUZZ_E2E_RUNS ?? 30) * 4;
const FORM = 'application/x-www-form-urlencoded';
/** Well under Bolt's 3 s wait for an ack: an answer later than this was not acknowledged. */
const ANSWERED_WITHIN_MS = 2_500;

type Json = Record<string, unknown>;

function templates(sessionId: string): Record<string, Json> {
  const user = { id: USERS.admin, username: 'admin', team_id: TEAM };
  const team = { id: TEAM, domain: 'vidops-test' };
  return {
    block_actions: {
      type: 'block_actions',
      user,
      team,
      channel: { id: CHANNEL, name: 'ops' },
      container: { type: 'message', channel_id: CHANNEL, message_ts: '1700000000.000100' },
      trigger_id: '1.2.fuzz',
      response_url: 'http://127.0.0.1:1/response/none',
      actions: [{ action_id: ACTION.sessionPicker, block_id: 'b', type: 'button', value: 'x', action_ts: '1.2' }],
    },
    view_submission: {
      type: 'view_submission',
      user,
      team,
      view: {
        id: 'V0FUZZ',
        callback_id: CALLBACK.muteEveryoneModal,
        private_metadata: '',
        state: {
          values: {
            [BLOCK.sessionPicker]: { [ACTION.sessionPicker]: { type: 'external_select', selected_option: { value: encodeSessionOption('nope', sessionId) } } },
          },
        },
      },
    },
    shortcut: { type: 'shortcut', user, team, callback_id: CALLBACK.muteEveryoneShortcut, trigger_id: '1.2.fuzz' },
    block_suggestion: {
      type: 'block_suggestion',
      user,
      team,
      action_id: ACTION.sessionPicker,
      block_id: 'session',
      value: 'st',
      view: { id: 'V0FUZZ', private_metadata: '' },
    },
    event_callback: {
      type: 'event_callback',
      team_id: TEAM,
      event_id: 'Ev0FUZZ',
      event: { type: 'app_home_opened', user: USERS.viewer, channel: 'D0HOME', tab: 'messages' },
    },
  };
}

/** Every path to a value inside `value` (keys and array indexes), the root excluded. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [];
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value as Json);
  return entries.flatMap(([key, child]) => [[...prefix, key], ...pathsOf(child, [...prefix, key])]);
}

function changed(value: unknown, path: (string | number)[], replacement: unknown | typeof REMOVE): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  const copy: Json | unknown[] = Array.isArray(value) ? [...value] : { ...(value as Json) };
  const next = changed((copy as Json)[head as string], rest, replacement);
  if (next === REMOVE) {
    if (Array.isArray(copy)) copy.splice(head as number, 1);
    else delete copy[head as string];
  } else (copy as Json)[head as string] = next;
  return copy;
}
const REMOVE = Symbol('remove');

type Case = { kind: 'interaction' | 'event'; body: unknown } | { kind: 'form'; fields: [string, string][] };

function cases(t: TestApp, sessionId: string): fc.Arbitrary<Case> {
  const payloads = templates(sessionId);
  const mutatedPayload = fc.constantFrom(...Object.keys(payloads)).chain((name) => {
    const base = payloads[name]!;
    const kind = name === 'event_callback' ? ('event' as const) : ('interaction' as const);
    const paths = pathsOf(base);
    return fc.oneof(
      fc.tuple(fc.constantFrom(...paths), fc.oneof(fc.jsonValue(), fc.constant(REMOVE))).map(([path, value]) => ({ kind, body: changed(base, path, value) })),
      fc.jsonValue().map((body) => ({ kind, body })),
    );
  });
  const command = () =>
    slashCommandFields({
      command: '/video',
      text: 'aliases',
      user: USERS.viewer,
      channel: CHANNEL,
      responseUrl: t.slack.newResponseUrl(),
      triggerId: '1.2.fuzz',
    });
  const mutatedForm = fc
    .tuple(
      fc.constantFrom('command', 'text', 'user_id', 'channel_id', 'team_id', 'payload', 'response_url'),
      fc.oneof(fc.constant('twice'), fc.constant('drop'), fc.string()),
    )
    .map(([key, how]): Case => {
      const fields = Object.entries(command());
      if (how === 'twice') return { kind: 'form', fields: [...fields, [key, 'again']] };
      if (how === 'drop') return { kind: 'form', fields: fields.filter(([k]) => k !== key) };
      return { kind: 'form', fields: [...fields.filter(([k]) => k !== key), [key, how]] };
    });
  return fc.oneof({ weight: 4, arbitrary: mutatedPayload }, { weight: 1, arbitrary: mutatedForm });
}

describe('payload shapes fuzzed through the receiver', () => {
  let t: TestApp;
  const rejections = collectUnhandledRejections();

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers every shape at once with 200 or 400, rejects nothing unhandled, and a command works afterwards', async () => {
    const seeded = t.seedSession({ streams: 1 });
    await fc.assert(
      fc.asyncProperty(cases(t, seeded.sessionId), async (c) => {
        const request =
          c.kind === 'form'
            ? signBody(SIGNING_SECRET, c.fields.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'), FORM)
            : c.kind === 'event'
              ? signedEvent(SIGNING_SECRET, c.body)
              : signedInteraction(SIGNING_SECRET, c.body);
        const started = performance.now();
        const { status } = await t.post(request);
        const ms = performance.now() - started;
        return [200, 400].includes(status) && ms < ANSWERED_WITHIN_MS && rejections.length === 0;
      }),
      { seed: FUZZ_SEED, numRuns: RUNS },
    );
    expect(rejections).toEqual([]);

    const since = t.slack.mark();
    await t.slash('/mute', `${seeded.streams[0]} ${seeded.sessionId}`, { user: USERS.moderator });
    await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === CHANNEL, { since });
    expect(t.emulator.control.getSession(t.project.apiKey, seeded.sessionId).streams[0]!.muted).toBe(true);
  }, 120_000);
});
