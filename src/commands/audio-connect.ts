/**
 * `/audio-connect <wss-uri> [session] [--streams a,b] [--rate 8000|16000] [--header k=v …]` —
 * sends a routed session's audio to a WebSocket (Audio Connector). Posts a card with a Stop
 * button (which disconnects the connector's connection) and hands it to the poller.
 */
import { z } from 'zod';
import { AUDIO_RATES, WEBSOCKET_HEADERS_MAX_BYTES } from '../api';
import { audioSnapshot } from '../poller/snapshot';
import { replyEphemeral } from '../slack/respond';
import { audioContext, audioKind } from '../kinds/audio';
import { startModel } from '../kinds';
import { warning } from '../views/blocks';
import { defineCommand, defineSubcommand } from './command';
import { headerPairs } from './dial';
import { identifier, projectFlag, projectName, sessionRef } from './grammar';
import { performChange } from '../interaction/change';
import { unwrapLink } from './render';
import { resolveSession } from '../interaction/session-ref';

/** Streams one connector can be limited to from a command. */
export const MAX_CONNECTOR_STREAMS = 50;

const websocketUri = z.string().transform((text, ctx) => {
  const uri = unwrapLink(text);
  let parsed: URL | undefined;
  try {
    parsed = new URL(uri);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'wss:' && parsed.protocol !== 'ws:') || uri.length > 2048) {
    ctx.addIssue({ code: 'custom', message: 'give a WebSocket address starting with wss:// (or ws://), e.g. wss://transcriber.example.com/audio' });
    return z.NEVER;
  }
  return uri;
});

const audioRate = z.string().transform((text, ctx) => {
  const rate = AUDIO_RATES.find((r) => String(r) === text.trim() || `${r / 1000}k` === text.trim().toLowerCase());
  if (rate === undefined) {
    ctx.addIssue({ code: 'custom', message: `the sample rate is 8000 or 16000 (Hz), not “${text}”` });
    return z.NEVER;
  }
  return rate;
});

const websocketHeaders = headerPairs('WebSocket').refine((headers) => Buffer.byteLength(JSON.stringify(headers), 'utf8') <= WEBSOCKET_HEADERS_MAX_BYTES, {
  error: `the headers may take at most ${WEBSOCKET_HEADERS_MAX_BYTES} bytes in all; shorten or drop some`,
});

const audioConnect = defineSubcommand({
  summary: 'Send a session’s audio to a WebSocket',
  role: 'moderator',
  args: {
    positionals: [
      { name: 'uri', label: 'wss-uri', description: 'a public WebSocket address that receives the audio, wss://…' },
      { name: 'session', label: 'session', optional: true, description: 'session ID or alias (routed sessions only); default: the channel’s session' },
    ],
    flags: [
      { name: 'streams', kind: 'list', valueLabel: 'stream-id,stream-id', description: 'only these streams (default: all, including later ones)' },
      { name: 'rate', kind: 'value', valueLabel: '8000|16000', description: 'sample rate in Hz (default 16000)' },
      { name: 'header', kind: 'list', valueLabel: 'name=value', description: 'header sent with each message (512 bytes in all); repeatable' },
      projectFlag,
    ],
    schema: z.object({
      uri: websocketUri,
      session: sessionRef.optional(),
      streams: z
        .array(identifier('a stream ID'))
        .max(MAX_CONNECTOR_STREAMS, { error: `name at most ${MAX_CONNECTOR_STREAMS} streams` })
        .optional(),
      rate: audioRate.optional(),
      header: websocketHeaders.optional(),
      project: projectName.optional(),
    }),
    examples: ['wss://transcriber.example.com/audio', 'wss://transcriber.example.com/audio standup --rate 8000 --header X-Meeting=standup'],
  },
  target: (args) => `${args.uri}${args.session ? ` in ${args.session}` : ''}`,
  async run(ix, args) {
    const resolved = await resolveSession(ix.services, ix, args.session, args.project);
    if (!resolved.ok) return replyEphemeral(ix, warning(resolved.message));
    const s = resolved.value;
    const streams = args.streams ? [...new Set(args.streams)] : undefined;
    const headers = args.header && Object.keys(args.header).length > 0 ? args.header : undefined;
    const model = (connectionId: string) =>
      audioContext(
        { connectionId, uri: args.uri, ...(streams ? { streams } : {}), audioRate: args.rate ?? 16000, headerNames: Object.keys(headers ?? {}) },
        { startedBy: ix.userId, ...(s.alias ? { alias: s.alias } : {}) },
      );
    await performChange(ix, {
      command: '/audio-connect',
      target: `${args.uri} in session ${s.sessionId}`.slice(0, 500),
      projectName: s.projectName,
      errorContext: { operation: 'audio-connect', sessionId: s.sessionId },
      call: (video) =>
        video.connect.start({
          sessionId: s.sessionId,
          websocket: {
            uri: args.uri,
            ...(streams ? { streams } : {}),
            ...(headers ? { headers } : {}),
            ...(args.rate ? { audioRate: args.rate } : {}),
          },
        }),
      notice: (connection) =>
        audioKind.render({
          resourceId: connection.id,
          sessionId: s.sessionId,
          projectName: s.projectName,
          state: audioSnapshot(streams, connection.connectionId),
          context: model(connection.connectionId),
          actions: [],
          now: ix.services.clock(),
        }),
      track: (connection) => ({
        kind: 'audio',
        resourceId: connection.id,
        sessionId: s.sessionId,
        initialState: audioSnapshot(streams, connection.connectionId),
        card: startModel(model(connection.connectionId)),
      }),
    });
  },
});

export const audioConnectCommand = defineCommand({
  command: '/audio-connect',
  summary: 'Send a session’s audio to a WebSocket (Audio Connector); the card has a Stop button.',
  subcommands: [audioConnect],
});
