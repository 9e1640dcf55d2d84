/** The policy table's two functions: how an action asks, by the way it is reached (the e2e table is test/app/confirmation-policy.test.ts). */
import { CONFIRMATION_POLICY, type PolicyAction, confirmationFor, dialogFor } from '../../src/views/confirmation-policy';

const spec = { title: 'Stop?', text: 'It stops.', confirm: 'Stop', danger: true };

describe('confirmation policy', () => {
  it('an irreversible action asks once: the card when typed, the dialog when clicked, the form from a shortcut', () => {
    expect(confirmationFor('broadcast-stop', 'typed')).toBe('card');
    expect(confirmationFor('broadcast-stop', 'clicked')).toBe('dialog');
    expect(confirmationFor('broadcast-stop', 'shortcut')).toBe('form');
  });

  it('a reversible action never asks', () => {
    for (const via of ['typed', 'clicked', 'shortcut'] as const) expect(confirmationFor('mute-all', via)).toBe('none');
  });

  it('puts a dialog on a button only where it is the one question', () => {
    for (const action of Object.keys(CONFIRMATION_POLICY) as PolicyAction[]) {
      const irreversible = CONFIRMATION_POLICY[action] === 'irreversible';
      expect(dialogFor(action, 'clicked', spec)).toEqual(irreversible ? { confirm: spec } : {});
      // On the card answering a typed command the card was the question.
      expect(dialogFor(action, 'typed', spec)).toEqual({});
    }
  });
});
