/**
 * `/dial <sip-uri> [session] [--from N] [--secure] [--video] [--observe-mute] [--header k=v …]
 * [--auth]` — dials a SIP endpoint into a routed session and posts the call card ("Hang up" and
 * a DTMF keypad). With `--auth` a modal asks for the digest username and password first: they
 * are never typed into a command (Slack keeps command text in the client's history) and are
 * never posted, logged, audited or stored — they exist only in the modal's submission and in
 * the one request to the video service.
 */
import { z } from 'zod';
import { type SipCall, type SipOptions, VideoValidationError, sipBody } from '../api';
import { sipSnapshot } from '../poller/snapshot';
import { replyEphemeral } from '../slack/respond';
import { openForm } from '../slack/slack-failure';
import { LIMITS, warning } from '../views/blocks';
import { errorMessage } from '../views/errors';
import type { SessionRef } from '../views/notices';
import { type DialMetadata, encodeDialMetadata, sipAuthModal } from '../views/sip';
import { callContext, callKind } from '../kinds/call';
import { startModel } from '../kinds';
import { sessionTarget } from '../views/values';
import type { Interaction } from '../interaction/interaction';
import { defineCommand, defineSubcommand } from './command';
import { projectFlag, projectName, sessionRef } from './grammar';
import { type ChangeResult, performChange } from '../interaction/change';
import { resolveSession } from '../interaction/session-ref';
import { unwrapLink } from './render';

/** `name=value` pairs of a repeatable `--header` flag, as an object (names must be unique). */
export function headerPairs(what: string) {
  return z.array(z.string()).transform((pairs, ctx) => {
    const headers: Record<string, string> = {};
    for (const pair of pairs) {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? '' : pair.slice(0, eq).trim();
      if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) {
        ctx.addIssue({ code: 'custom', message: `“${pair}” is not a ${what} header; write name=value, e.g. X-Meeting=standup` });
        return z.NEVER;
      }
      if (Object.keys(headers).some((known) => known.toLowerCase() === name.toLowerCase())) {
        ctx.addIssue({ code: 'custom', message: `the header ${name} is given twice; give it once` });
        return z.NEVER;
      }
      headers[name] = pair.slice(eq + 1).trim();
    }
    return headers;
  });
}

const SIP_FROM = /^[A-Za-z0-9_+!%`'~-]+@[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::\d+)?$/;

const sipUri = z.string().transform((text, ctx) => {
  const uri = unwrapLink(text);
  if (!/^sips?:\S+$/i.test(uri) || uri.length > 1000) {
    ctx.addIssue({ code: 'custom', message: 'give a SIP address starting with sip: or sips:, e.g. sip:+15551234567@sip.example.com;transport=tls' });
    return z.NEVER;
  }
  // `sip:user:password@host`: a password written into the address would end up in the channel.
  if (/^sips?:[^@;]*:[^@;]*@/i.test(uri)) {
    ctx.addIssue({ code: 'custom', message: 'leave the password out of the address; add --auth and type the credentials in the form that opens' });
    return z.NEVER;
  }
  return uri;
});

const callerId = z.string().refine((from) => SIP_FROM.test(from), {
  error: "the caller ID is name@domain, the name made of letters, digits and _ + ! % ` ' ~ - (e.g. +15557654321@example.com)",
});

export interface DialRequest {
  session: SessionRef;
  sip: SipOptions;
  /** Where the card goes. */
  channelId?: string;
}

/**
 * Dials, posts the call card and hands the call to the poller. `quiet`: errors are returned,
 * not told (the modal shows them).
 */
export async function dialCall(ix: Interaction, request: DialRequest, options: { quiet?: boolean } = {}): Promise<ChangeResult<SipCall>> {
  const { session: s, sip } = request;
  const facts = {
    uri: sip.uri,
    ...(sip.from ? { from: sip.from } : {}),
    secure: sip.secure === true,
    video: sip.video === true,
    observeForceMute: sip.observeForceMute === true,
    headerNames: Object.keys(sip.headers ?? {}),
    digestAuth: sip.auth !== undefined,
  };
  const who = { startedBy: ix.userId, ...(s.alias ? { alias: s.alias } : {}) };
  return performChange(
    ix,
    {
      command: '/dial',
      target: `${sip.uri} in session ${s.sessionId}`.slice(0, 500),
      projectName: s.projectName,
      errorContext: { operation: 'dial', sessionId: s.sessionId },
      call: (video) => video.sip.dial({ sessionId: s.sessionId, sip }),
      notice: (call) =>
        callKind.render({
          resourceId: call.id,
          sessionId: s.sessionId,
          projectName: s.projectName,
          state: sipSnapshot(call.streamId, ix.services.clock(), call.connectionId),
          context: callContext(call, facts, who),
          actions: [],
          now: ix.services.clock(),
        }),
      track: (call) => ({
        kind: 'sip',
        resourceId: call.id,
        sessionId: s.sessionId,
        initialState: sipSnapshot(call.streamId, ix.services.clock(), call.connectionId),
        card: startModel(callContext(call, facts, who)),
      }),
      ...(request.channelId ? { channelId: request.channelId } : {}),
    },
    options,
  );
}

/** The SIP options of a dial-out without credentials, as the modal's metadata carries them. */
export function sipOptionsOf(metadata: DialMetadata): SipOptions {
  return {
    uri: metadata.u,
    ...(metadata.f ? { from: metadata.f } : {}),
    ...(metadata.h && Object.keys(metadata.h).length > 0 ? { headers: metadata.h } : {}),
    ...(metadata.sec ? { secure: true } : {}),
    ...(metadata.vid ? { video: true } : {}),
    ...(metadata.obs ? { observeForceMute: true } : {}),
  };
}

const dial = defineSubcommand({
  summary: 'Dial a phone or SIP endpoint into a session',
  role: 'moderator',
  args: {
    positionals: [
      { name: 'uri', label: 'sip-uri', description: 'whom to call, e.g. sip:+15551234567@sip.example.com;transport=tls' },
      { name: 'session', label: 'session', optional: true, description: 'session ID or alias (routed sessions only); default: the channel’s session' },
    ],
    flags: [
      {
        name: 'from',
        kind: 'value',
        valueLabel: 'name@domain',
        description: 'caller ID shown to the callee, e.g. +15557654321@example.com (an unknown number shows as Unknown, and some carriers refuse the call)',
      },
      { name: 'secure', kind: 'boolean', description: 'encrypt the media (add ;transport=tls to the address to also secure signalling)' },
      { name: 'video', kind: 'boolean', description: 'send the callee the session’s composed video too' },
      { name: 'observe-mute', kind: 'boolean', description: 'the call obeys /mute and /mute-all, and the callee can toggle mute with *6' },
      { name: 'header', kind: 'list', valueLabel: 'name=value', description: 'custom SIP header for the INVITE; repeatable' },
      { name: 'auth', kind: 'boolean', description: 'the endpoint needs digest credentials: a form asks for them (never type a password into a command)' },
      projectFlag,
    ],
    schema: z.object({
      uri: sipUri,
      session: sessionRef.optional(),
      from: callerId.optional(),
      secure: z.boolean().optional(),
      video: z.boolean().optional(),
      observeMute: z.boolean().optional(),
      header: headerPairs('SIP').optional(),
      auth: z.boolean().optional(),
      project: projectName.optional(),
    }),
    examples: [
      'sip:+15551234567@sip.example.com;transport=tls',
      'sip:conference@pbx.example.com standup --from +15557654321@example.com --observe-mute --auth',
    ],
  },
  target: (args) => `${args.uri}${args.session ? ` in ${args.session}` : ''}`,
  async run(ix, args) {
    const resolved = await resolveSession(ix.services, ix, args.session, args.project);
    if (!resolved.ok) return replyEphemeral(ix, warning(resolved.message));
    const s = resolved.value;
    const metadata: DialMetadata = {
      ...sessionTarget(s),
      ...(ix.channelId ? { c: ix.channelId } : {}),
      u: args.uri,
      ...(args.from ? { f: args.from } : {}),
      ...(args.header && Object.keys(args.header).length > 0 ? { h: args.header } : {}),
      ...(args.secure ? { sec: true } : {}),
      ...(args.video ? { vid: true } : {}),
      ...(args.observeMute ? { obs: true } : {}),
    };
    const sip = sipOptionsOf(metadata);
    if (!args.auth) {
      await dialCall(ix, { session: s, sip, ...(ix.channelId ? { channelId: ix.channelId } : {}) });
      return;
    }
    // Check everything but the credentials now, so the form is not filled in for nothing.
    try {
      sipBody({ ...sip, auth: { username: 'x', password: 'x' } });
    } catch (error) {
      if (!(error instanceof VideoValidationError)) throw error;
      return replyEphemeral(ix, errorMessage(error, { operation: 'dial', project: s.projectName, sessionId: s.sessionId }));
    }
    const encoded = encodeDialMetadata(metadata);
    if (encoded.length > LIMITS.privateMetadata) {
      return replyEphemeral(ix, warning('The address and headers are too long to carry through the credentials form; shorten the headers and try again.'));
    }
    try {
      if (!ix.triggerId) throw new Error('no trigger_id');
      await openForm(ix.client, { trigger_id: ix.triggerId, view: sipAuthModal(metadata) });
    } catch (error) {
      ix.logger.warn('could not open the SIP credentials form', { error });
      await replyEphemeral(ix, warning('Slack did not let me open the credentials form in time; run the command again.'));
    }
  },
});

export const dialCommand = defineCommand({
  command: '/dial',
  summary: 'Dial a phone number or SIP endpoint into a session; the call card hangs up and has a keypad.',
  subcommands: [dial],
});
