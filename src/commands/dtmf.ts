/**
 * `/dtmf <digits> [session] [--to <connection-id>]` — plays DTMF tones to every client of a
 * session, or to one connection (a phone call's). Digits are often PINs: the channel notice and
 * the audit record give their count, not the digits.
 */
import { z } from 'zod';
import { replyEphemeral } from '../slack/respond';
import { warning } from '../views/blocks';
import { dtmfNotice } from '../views/sip';
import { defineCommand, defineSubcommand } from './command';
import { identifier, projectFlag, projectName, sessionRef } from './grammar';
import { performChange } from '../interaction/change';
import { resolveSession } from '../interaction/session-ref';

/** Tones in one command; a pause `p` lasts 500 ms. */
export const MAX_DTMF_DIGITS = 128;

const digits = z
  .string()
  .transform((text) => text.replace(/P/g, 'p'))
  .pipe(
    z
      .string()
      .max(MAX_DTMF_DIGITS, { error: `send at most ${MAX_DTMF_DIGITS} digits at a time` })
      .regex(/^[0-9*#p]+$/, { error: 'use only 0-9, *, # and p (a half-second pause), e.g. 1234# or 1p2p3' })
      .refine((sequence) => /[0-9*#]/.test(sequence), { error: 'give at least one digit besides pauses, e.g. 1p2' }),
  );

/** Tones actually played (pauses are not tones). */
export function toneCount(sequence: string): number {
  return sequence.replace(/p/g, '').length;
}

const dtmf = defineSubcommand({
  summary: 'Play DTMF tones to a session, or to one connection (a phone call)',
  role: 'moderator',
  args: {
    positionals: [
      { name: 'digits', label: 'digits', description: '0-9, *, # and p (a half-second pause)' },
      { name: 'session', label: 'session', optional: true, description: 'session ID or alias; default: the channel’s session' },
    ],
    flags: [{ name: 'to', kind: 'value', valueLabel: 'connection-id', description: 'only this connection, e.g. the call’s (on its card)' }, projectFlag],
    schema: z.object({ digits, session: sessionRef.optional(), to: identifier('a connection ID').optional(), project: projectName.optional() }),
    examples: ['1234#', '1p2p3 standup --to e9f8c166-6c67-440d-994a-04fb6dfed007'],
  },
  target: (args) => (args.to ? `connection ${args.to}` : (args.session ?? '')),
  async run(ix, args) {
    const resolved = await resolveSession(ix.services, ix, args.session, args.project);
    if (!resolved.ok) return replyEphemeral(ix, warning(resolved.message));
    const s = resolved.value;
    const count = toneCount(args.digits);
    await performChange(ix, {
      command: '/dtmf',
      target: `${count === 1 ? '1 tone' : `${count} tones`} to ${args.to ? `connection ${args.to}` : 'everyone'} in session ${s.sessionId}`,
      projectName: s.projectName,
      errorContext: { operation: 'dtmf', sessionId: s.sessionId, ...(args.to ? { connectionId: args.to } : {}) },
      call: (video) => video.sip.playDtmf(s.sessionId, args.digits, args.to ? { connectionId: args.to } : {}),
      notice: () => dtmfNotice(ix.userId, s, count, args.to),
    });
  },
});

export const dtmfCommand = defineCommand({
  command: '/dtmf',
  summary: 'Play DTMF tones (phone keypad digits) to a session or to one call.',
  subcommands: [dtmf],
});
