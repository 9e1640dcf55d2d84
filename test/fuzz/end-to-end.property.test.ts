/**
 * The fuzzing end to end: signed slash commands with hostile text for every registered command,
 * and hostile submissions of every modal, sent to the real app (startTestApp: Bolt over HTTP,
 * fake Slack, the emulator). The asker is an admin, so every command gets past its role check
 * into its handler. Properties: every request gets a 200 ack; every command answers (its ack, or
 * the first thing it sends); every answer, and everything the app sent to fake Slack by the end,
 * is valid Block Kit without a ping or a link the user wrote; field errors name blocks of the
 * submitted view; and the process sees no unhandled rejection.
 */
import fc from 'fast-check';
import { COMMANDS } from '../../src/commands';
import type { SlashCommand } from '../../src/commands/command';
import { CHANNEL, USERS, startTestApp, type TestApp } from '../harness/app';
import { sentPayloadProblems } from '../harness/block-kit';
import type { RecordedCall, RecordedResponse } from '../harness/fake-slack';
import { FUZZ_SEED, grammarWords, hostileText, mutatedExample } from './hostile';
import { MODALS, blockIds, fuzzedSubmission } from './modals';
import { APP_DATE, type Allowed, unsafeFieldErrors, unsafeMessage, unsafeModal } from './safety';

const COMMAND_RUNS = Number(process.env.FUZZ_E2E_RUNS ?? 30);
const MODAL_RUNS = Number(process.env.FUZZ_E2E_RUNS ?? 30);

/**
 * Mentions the app writes itself: the asker, its own dates, and channel references in the
 * canonical form only channelMention() writes (`<#C…>`, no label): a channel the asker named as a
 * destination (`/usage schedule weekly C0123ABCDEF`) is shown as #name, which pings nobody.
 * A labelled `<#C123|general>`, `<!…>`, `<@…>` or a link from the fuzz text fails the run.
 */
const APP_MENTIONS: Allowed = [`<@${USERS.admin}>`, /^<#[CG][A-Z0-9]+>$/, APP_DATE];

const losers: Promise<unknown>[] = [];

async function firstAnswer(t: TestApp, responseId: string, since: number): Promise<RecordedResponse | RecordedCall> {
  const waits: Promise<RecordedResponse | RecordedCall>[] = [
    t.slack.waitForResponse(responseId, undefined, { timeoutMs: 5_000 }),
    ...['views.open', 'chat.postMessage', 'chat.postEphemeral', 'files.getUploadURLExternal'].map((method) =>
      t.slack.waitForCall(method, undefined, { since, timeoutMs: 5_000 }),
    ),
  ];
  try {
    return await Promise.race(waits);
  } finally {
    losers.push(...waits.map((wait) => wait.catch(() => undefined)));
  }
}

function answerProblems(answer: RecordedResponse | RecordedCall): string[] {
  if ('method' in answer && answer.method === 'views.open') return unsafeModal(answer.body.view, APP_MENTIONS);
  if ('method' in answer && answer.method === 'files.getUploadURLExternal') return [];
  return unsafeMessage(answer.body, APP_MENTIONS);
}

function wordsOf(command: SlashCommand): fc.Arbitrary<string> {
  const names = command.subcommands.flatMap((s) => (s.name ? [s.name] : []));
  const flags = command.subcommands.flatMap((s) => s.args.flags.map((f) => f.name));
  return grammarWords(names, flags);
}

describe('end-to-end fuzzing', () => {
  let t: TestApp;
  let sessionId = '';
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', onRejection);
    t = await startTestApp({ account: true });
    const seeded = t.seedSession({ streams: 2 });
    sessionId = seeded.sessionId;
    const res = await t.slash('/video', `alias standup ${sessionId}`, { user: USERS.admin });
    await firstAnswer(t, res.responseId, 0);
  });

  afterAll(async () => {
    await Promise.all(losers);
    try {
      expect(sentPayloadProblems(t.slack.calls, t.slack.responses)).toEqual([]);
      const everything = [
        ...t.slack.calls.filter((c) => c.method.startsWith('chat.')).flatMap((c) => unsafeMessage(c.body, APP_MENTIONS).map((p) => `${c.method}: ${p}`)),
        ...t.slack.calls
          .filter((c) => c.method.startsWith('views.') && (c.body.view as { type?: string })?.type === 'modal')
          .flatMap((c) => unsafeModal(c.body.view, APP_MENTIONS).map((p) => `${c.method}: ${p}`)),
        ...t.slack.responses.flatMap((r) => unsafeMessage(r.body, APP_MENTIONS).map((p) => `response_url: ${p}`)),
      ];
      expect(everything).toEqual([]);
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
      await t.close();
    }
  });

  describe.each(COMMANDS.map((c) => [c.command, c] as const))('%s with hostile text', (_name, command) => {
    it('acks with 200 and answers with safe, valid Block Kit', async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(hostileText(wordsOf(command)), mutatedExample(command)), async ({ text }) => {
          const since = t.slack.mark();
          const res = await t.slash(command.command, text, { user: USERS.admin });
          expect(res.status).toBe(200);
          if (res.ack) {
            expect(unsafeMessage(res.ack, APP_MENTIONS)).toEqual([]);
            return;
          }
          const answer = await firstAnswer(t, res.responseId, since);
          expect(answerProblems(answer)).toEqual([]);
        }),
        { seed: FUZZ_SEED, numRuns: COMMAND_RUNS, endOnFailure: true },
      );
    });
  });

  describe.each(MODALS.map((m) => [m.callbackId, m] as const))('%s with hostile submissions', (_id, modal) => {
    it('acks with 200: field errors on blocks of the view, or an update that is a valid modal', async () => {
      const view = modal.view(CHANNEL, sessionId);
      const present = blockIds(view);
      let viewCounter = 0;
      await fc.assert(
        fc.asyncProperty(fuzzedSubmission(view, sessionId), async (submitted) => {
          const res = await t.submitView(
            {
              callbackId: modal.callbackId,
              viewId: `V0FUZZ${++viewCounter}`,
              privateMetadata: submitted.private_metadata,
              blocks: [...submitted.blocks],
              values: submitted.state.values,
            },
            { user: USERS.admin },
          );
          expect(res.status).toBe(200);
          const body = res.body as { response_action?: string; errors?: Record<string, string>; view?: unknown } | undefined;
          if (body?.response_action === 'errors') {
            expect(Object.keys(body.errors ?? {}).filter((block) => !present.has(block))).toEqual([]);
            expect(unsafeFieldErrors(body.errors ?? {})).toEqual([]);
          } else if (body?.response_action === 'update') {
            expect(unsafeModal(body.view, APP_MENTIONS)).toEqual([]);
          } else {
            expect(body ?? '').toEqual('');
          }
        }),
        { seed: FUZZ_SEED, numRuns: MODAL_RUNS, endOnFailure: true },
      );
    });
  });
});
