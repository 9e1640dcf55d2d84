import { z } from 'zod';
import type { ResourceContext } from './context';
import { type CallOptions, json, projectPath } from './http';
import { callerToken } from './participant';
import {
  compact,
  describeValue,
  fail,
  optionalBoolean,
  optionalIdArray,
  optionalString,
  optionalStringRecord,
  requireId,
  requireObject,
  requireString,
} from './validate';

export const sipCallSchema = z.looseObject({
  id: z.string(),
  connectionId: z.string(),
  streamId: z.string(),
});
export type SipCall = z.output<typeof sipCallSchema>;

export interface SipOptions {
  /** Destination, `sip:` or `sips:`; `;transport=tls` negotiates securely. */
  uri: string;
  /** `name@domain`, name made of letters, digits and `_ + ! % \` ' ~ -`. */
  from?: string;
  headers?: Record<string, string>;
  auth?: { username: string; password: string };
  /** Encrypt media. */
  secure?: boolean;
  video?: boolean;
  /** Lets the caller toggle mute with *6. */
  observeForceMute?: boolean;
  /** Streams to include; default all. */
  streams?: string[];
}

export interface DialOptions {
  sessionId: string;
  /** Participant token for the SIP side; minted (role publisher) when omitted. */
  token?: string;
  /** Connection data for the minted token, e.g. which endpoint was called. */
  tokenData?: string;
  sip: SipOptions;
}

const SIP_FROM = /^[A-Za-z0-9_+!%`'~-]+@[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::\d+)?$/;
const SIP_URI = /^sips?:\S+$/;
const DTMF_DIGITS = /^[0-9*#p]+$/;

export function sipBody(value: unknown): { body: Record<string, unknown>; secrets: string[] } {
  const sip = requireObject('sip', value, '{ uri: "sip:+15551234567@sip.example.com;transport=tls" }');
  const uri = requireString('sip.uri', sip.uri, '"sip:+15551234567@sip.example.com;transport=tls"');
  if (!SIP_URI.test(uri)) {
    fail('sip.uri', `must start with "sip:" or "sips:" and contain no spaces (got ${describeValue(uri)})`, '"sip:+15551234567@sip.example.com;transport=tls"');
  }
  const from = optionalString('sip.from', sip.from, '"+15557654321@example.com"');
  if (from !== undefined && !SIP_FROM.test(from)) {
    fail(
      'sip.from',
      `must look like name@domain, the name using letters, digits and _ + ! % \` ' ~ - (got ${describeValue(from)})`,
      '"+15557654321@example.com" or "support_line@example.com"',
    );
  }
  let auth: { username: string; password: string } | undefined;
  if (sip.auth !== undefined) {
    const a = requireObject('sip.auth', sip.auth, '{ username: "vidops", password: "..." }');
    auth = {
      username: requireString('sip.auth.username', a.username, '"vidops"'),
      password: requireString('sip.auth.password', a.password, 'the digest password of that user'),
    };
  }
  const body = compact({
    uri,
    from,
    headers: optionalStringRecord('sip.headers', sip.headers, '{ "X-Meeting-Id": "standup" }'),
    auth,
    secure: optionalBoolean('sip.secure', sip.secure),
    video: optionalBoolean('sip.video', sip.video),
    observeForceMute: optionalBoolean('sip.observeForceMute', sip.observeForceMute),
    streams: optionalIdArray('sip.streams', sip.streams, '["8b732909-0a06-46a2-8ea8-074e64d43422"]'),
  });
  return { body, secrets: auth ? [auth.password] : [] };
}

export function dtmfDigits(digits: unknown): string {
  if (typeof digits !== 'string' || !DTMF_DIGITS.test(digits)) {
    fail('digits', `must use only 0-9, *, # and p (a 500 ms pause) (got ${describeValue(digits)})`, '"1234#" or "1p2p3"');
  }
  return digits;
}

export class Sip {
  readonly #ctx: ResourceContext;

  constructor(ctx: ResourceContext) {
    this.#ctx = ctx;
  }

  /** Dials out from a routed session to a SIP endpoint. */
  async dial(options: DialOptions, call?: CallOptions): Promise<SipCall> {
    const opts = requireObject('options', options, '{ sessionId: "2_MX4xMjM0NTZ-fg", sip: { uri: "sip:alice@example.com" } }');
    const sessionId = requireId('sessionId', opts.sessionId);
    const sip = sipBody(opts.sip);
    const data = optionalString('tokenData', opts.tokenData, '"sip:alice@example.com"');
    const token = callerToken(opts.token, undefined, sessionId) ?? (await this.#ctx.tokens.client({ sessionId, role: 'publisher', data }));
    return this.#ctx.http.request(
      {
        method: 'POST',
        path: projectPath(this.#ctx.apiKey(), 'dial'),
        json: { sessionId, token, sip: sip.body },
        secrets: [token, ...sip.secrets],
        parse: json(sipCallSchema),
      },
      call,
    );
  }

  /** Plays DTMF digits to every client, or to one connection when `connectionId` is given. */
  async playDtmf(sessionId: string, digits: string, options: { connectionId?: string } = {}, call?: CallOptions): Promise<void> {
    const segments = ['session', requireId('sessionId', sessionId)];
    if (options.connectionId !== undefined) {
      segments.push('connection', requireId('connectionId', options.connectionId, '"8b732909-0a06-46a2-8ea8-074e64d43422"'));
    }
    const path = projectPath(this.#ctx.apiKey(), ...segments, 'play-dtmf');
    return this.#ctx.http.request({ method: 'POST', path, json: { digits: dtmfDigits(digits) } }, call);
  }
}
