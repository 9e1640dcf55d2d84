import { z } from 'zod';
import type { ResourceContext } from './context';
import { type CallOptions, json, projectPath } from './http';
import { callerToken } from './participant';
import {
  compact,
  fail,
  optionalIdArray,
  optionalOneOf,
  optionalString,
  optionalStringRecord,
  requireId,
  requireObject,
  requireUrl,
  utf8Bytes,
} from './validate';

export const AUDIO_RATES = [8000, 16000] as const;
export type AudioRate = (typeof AUDIO_RATES)[number];
export const WEBSOCKET_HEADERS_MAX_BYTES = 512;

export const audioConnectionSchema = z.looseObject({ id: z.string(), connectionId: z.string() });
export type AudioConnection = z.output<typeof audioConnectionSchema>;

export interface StartAudioConnectorOptions {
  sessionId: string;
  /** Participant token; minted (role publisher) when omitted. */
  token?: string;
  tokenData?: string;
  websocket: {
    /** ws:// or wss:// */
    uri: string;
    /** Default all streams. */
    streams?: string[];
    /** Sent with each message; at most 512 bytes as JSON. */
    headers?: Record<string, string>;
    /** 8000 or 16000 (default) Hz. */
    audioRate?: AudioRate;
  };
}

const WS_EXAMPLE = '"wss://transcriber.example.com/audio"';

export function websocketBody(value: unknown): Record<string, unknown> {
  const ws = requireObject('websocket', value, `{ uri: ${WS_EXAMPLE}, audioRate: 16000 }`);
  requireUrl('websocket.uri', ws.uri, ['ws', 'wss'], WS_EXAMPLE);
  const headers = optionalStringRecord('websocket.headers', ws.headers, '{ "X-Meeting": "standup" }');
  if (headers !== undefined) {
    const bytes = utf8Bytes(JSON.stringify(headers));
    if (bytes > WEBSOCKET_HEADERS_MAX_BYTES) {
      fail('websocket.headers', `must be at most ${WEBSOCKET_HEADERS_MAX_BYTES} bytes as JSON (got ${bytes} bytes)`, '{ "X-Meeting": "standup" }');
    }
  }
  return compact({
    uri: ws.uri as string,
    streams: optionalIdArray('websocket.streams', ws.streams, '["8b732909-0a06-46a2-8ea8-074e64d43422"]'),
    headers,
    audioRate: optionalOneOf('websocket.audioRate', ws.audioRate, AUDIO_RATES),
  });
}

export class AudioConnector {
  readonly #ctx: ResourceContext;

  constructor(ctx: ResourceContext) {
    this.#ctx = ctx;
  }

  /** Sends the session's audio to a WebSocket (routed sessions only). */
  async start(options: StartAudioConnectorOptions, call?: CallOptions): Promise<AudioConnection> {
    const opts = requireObject('options', options, `{ sessionId: "2_MX4xMjM0NTZ-fg", websocket: { uri: ${WS_EXAMPLE} } }`);
    const sessionId = requireId('sessionId', opts.sessionId);
    const websocket = websocketBody(opts.websocket);
    const data = optionalString('tokenData', opts.tokenData, '"transcriber"');
    const token = callerToken(opts.token, undefined, sessionId) ?? (await this.#ctx.tokens.client({ sessionId, role: 'publisher', data }));
    return this.#ctx.http.request(
      {
        method: 'POST',
        path: projectPath(this.#ctx.apiKey(), 'connect'),
        json: { sessionId, token, websocket },
        secrets: [token],
        parse: json(audioConnectionSchema),
      },
      call,
    );
  }
}
