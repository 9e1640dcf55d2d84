/**
 * Every modal submission parser fed hostile form values (test/fuzz/modals.ts fills each input of
 * the real view with values of its element's kind). Properties: it never throws; it refuses a
 * form it cannot read, or answers per-field errors, or accepts; errors name only blocks of the
 * submitted view (Slack refuses the ack otherwise) and carry no ping or link. A test fails when a
 * view submission listener exists without a parser in MODALS.
 */
import type { App } from '@slack/bolt';
import fc from 'fast-check';
import * as actions from '../../src/actions';
import type { Services } from '../../src/services';
import { FUZZ_SEED } from './hostile';
import { readStartForm as readRecordForm } from '../../src/actions/record-start';
import { readStorageForm } from '../../src/actions/record-storage';
import { EMPTY_START_FORM, recordStartModal } from '../../src/views/archive-modal';
import { storageModal } from '../../src/views/storage';
import { MODALS, type Values, blockIds, fuzzedSubmission } from './modals';
import { unsafeFieldErrors, unsafeModal } from './safety';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const hasProject = (name: string) => name === 'prod';

/** The callback_ids the app registers view-submission listeners for, read by registering on a recording stand-in. */
function registeredViewCallbacks(): string[] {
  const ids: string[] = [];
  const recorder = new Proxy(
    {},
    {
      get: (_target, property) => (constraint: unknown) => {
        if (property === 'view') ids.push(typeof constraint === 'string' ? constraint : JSON.stringify(constraint));
      },
    },
  );
  actions.register(recorder as App, {} as Services);
  return ids;
}

it('every view submission the app listens for has its parser fuzzed here', () => {
  expect([...registeredViewCallbacks()].sort()).toEqual(MODALS.map((m) => m.callbackId).sort());
});

describe.each(MODALS.map((m) => [m.callbackId, m] as const))('%s submission parser under fuzzing', (_id, modal) => {
  const view = modal.view('C0OPS', 'session-1');
  const present = blockIds(view);

  it('never throws; stale, field errors on blocks of the view, or accepted; no ping or link in an error', () => {
    fc.assert(
      fc.property(fuzzedSubmission(view, 'session-1'), (submitted) => {
        const outcome = modal.parse(submitted, hasProject);
        if (outcome.kind !== 'errors') return;
        expect(Object.keys(outcome.errors).length).toBeGreaterThan(0);
        expect(Object.keys(outcome.errors).filter((block) => !present.has(block))).toEqual([]);
        expect(unsafeFieldErrors(outcome.errors)).toEqual([]);
      }),
      { seed: FUZZ_SEED, numRuns: RUNS },
    );
  });

  it('refuses a private_metadata it cannot read instead of guessing', () => {
    for (const metadata of ['', 'not json', '{"__proto__":{"p":"prod"}}', '[]', 'null', '{"p":1,"s":2,"r":"5"}']) {
      const outcome = modal.parse({ blocks: view.blocks, private_metadata: metadata, state: { values: {} } }, hasProject);
      expect(outcome.kind).not.toBe('accepted');
    }
  });
});

describe('forms drawn again from a submission (redraws, refusals shown in the form)', () => {
  const redraws = [
    {
      name: 'record start',
      view: recordStartModal(EMPTY_START_FORM, { c: 'C0OPS' }),
      redraw: (values: Values) => recordStartModal(readRecordForm(values as never), { c: 'C0OPS' }, 'The video service refused: session not found.'),
    },
    {
      name: 'upload target',
      view: storageModal({ type: 's3', fallback: 'none' }, { p: 'prod', c: 'C0OPS' }),
      redraw: (values: Values) =>
        storageModal(readStorageForm(values as never), { p: 'prod', c: 'C0OPS' }, 'The bucket refused the keys. Type the keys again to retry.'),
    },
  ];

  it.each(redraws.map((r) => [r.name, r] as const))('%s: always a modal Slack accepts, without a ping or link', (_name, { view, redraw }) => {
    fc.assert(
      fc.property(fuzzedSubmission(view, 'session-1'), (submitted) => {
        expect(unsafeModal(redraw(submitted.state.values), ['<#C0OPS>'])).toEqual([]);
      }),
      { seed: FUZZ_SEED, numRuns: RUNS },
    );
  });

  it('leaves out a picked session whose option Slack would refuse (a 438-character value), found end to end', () => {
    const long = { text: { type: 'plain_text' as const, text: 'x'.repeat(200) }, value: `p=prod&s=${'y'.repeat(429)}` };
    const modal = recordStartModal({ ...EMPTY_START_FORM, session: long }, {}, 'refused');
    expect(unsafeModal(modal)).toEqual([]);
    const fine = recordStartModal({ ...EMPTY_START_FORM, session: { text: { type: 'plain_text', text: 'standup' }, value: 'p=prod&s=1' } }, {});
    expect(JSON.stringify(fine)).toContain('"initial_option":{"text":{"type":"plain_text","text":"standup","emoji":true},"value":"p=prod&s=1"}');
  });
});
