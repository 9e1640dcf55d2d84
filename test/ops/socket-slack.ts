/**
 * Just enough of Slack for a Socket Mode app: `apps.connections.open` hands out a WebSocket URL
 * served here (RFC 6455 handshake and text frames, written out since no WebSocket server
 * package is installed), the `hello` Slack sends first, envelopes pushed by the test and the
 * app's acks. Every other Web API method is passed on to the fake Slack (test/harness).
 */
import { createHash } from 'node:crypto';
import { type IncomingMessage, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

export interface SocketSlack {
  /** The SLACK_API_URL to give the app (ends with `/api/`). */
  apiUrl: string;
  /** Resolves once the app's socket is open and greeted. */
  connected(): Promise<void>;
  /** Pushes an envelope; resolves with the app's ack payload for it. */
  send(type: string, payload: Record<string, unknown>): Promise<unknown>;
  close(): Promise<void>;
}

function frame(text: string, opcode = 0x1): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const length = payload.length;
  const header = length < 126 ? Buffer.from([0x80 | opcode, length]) : length < 65_536 ? Buffer.alloc(4) : Buffer.alloc(10);
  if (length >= 126 && length < 65_536) {
    header[0] = 0x80 | opcode;
    header[1] = 126;
    header.writeUInt16BE(length, 2);
  } else if (length >= 65_536) {
    header[0] = 0x80 | opcode;
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(length), 2);
  }
  return Buffer.concat([header, payload]);
}

/** Splits the client's (masked) frames off `buffer`; returns them and what is left. */
function readFrames(buffer: Buffer): { frames: { opcode: number; data: Buffer }[]; rest: Buffer } {
  const frames: { opcode: number; data: Buffer }[] = [];
  let offset = 0;
  for (;;) {
    if (buffer.length - offset < 2) break;
    const opcode = buffer[offset]! & 0x0f;
    const masked = (buffer[offset + 1]! & 0x80) !== 0;
    let length = buffer[offset + 1]! & 0x7f;
    let cursor = offset + 2;
    if (length === 126) {
      if (buffer.length < cursor + 2) break;
      length = buffer.readUInt16BE(cursor);
      cursor += 2;
    } else if (length === 127) {
      if (buffer.length < cursor + 8) break;
      length = Number(buffer.readBigUInt64BE(cursor));
      cursor += 8;
    }
    const maskEnd = cursor + (masked ? 4 : 0);
    if (buffer.length < maskEnd + length) break;
    const data = Buffer.from(buffer.subarray(maskEnd, maskEnd + length));
    if (masked) for (let i = 0; i < data.length; i++) data[i]! ^= buffer[cursor + (i % 4)]!;
    frames.push({ opcode, data });
    offset = maskEnd + length;
  }
  return { frames, rest: buffer.subarray(offset) };
}

export async function startSocketSlack(fakeSlackApiUrl: string): Promise<SocketSlack> {
  let socket: Duplex | undefined;
  let greeted: () => void = () => undefined;
  const greeting = new Promise<void>((resolve) => (greeted = resolve));
  const acks = new Map<string, (payload: unknown) => void>();
  let envelopes = 0;

  const server = createServer((req: IncomingMessage, res) => {
    if (req.url === '/api/apps.connections.open') {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/link` }));
      return;
    }
    const to = new URL(req.url!.replace(/^\/api\//, ''), fakeSlackApiUrl);
    const upstream = request(to, { method: req.method, headers: { ...req.headers, host: to.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  server.on('upgrade', (req: IncomingMessage, upgraded: Duplex) => {
    const accept = createHash('sha1').update(`${req.headers['sec-websocket-key']}${WS_GUID}`).digest('base64');
    upgraded.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
    socket = upgraded;
    let pending: Buffer = Buffer.alloc(0);
    upgraded.on('data', (chunk: Buffer) => {
      const { frames, rest } = readFrames(Buffer.concat([pending, chunk]));
      pending = rest;
      for (const { opcode, data } of frames) {
        if (opcode === 0x9) upgraded.write(frame(data.toString('utf8'), 0xa));
        if (opcode === 0x8) upgraded.end(frame('', 0x8));
        if (opcode !== 0x1) continue;
        const message = JSON.parse(data.toString('utf8')) as { envelope_id?: string; payload?: unknown };
        if (message.envelope_id) acks.get(message.envelope_id)?.(message.payload);
      }
    });
    upgraded.on('error', () => undefined);
    upgraded.write(
      frame(
        JSON.stringify({
          type: 'hello',
          num_connections: 1,
          debug_info: { host: 'ops-test', approximate_connection_time: 3600 },
          connection_info: { app_id: 'A0OPS' },
        }),
      ),
    );
    greeted();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`,
    connected: () => greeting,
    send(type, payload) {
      const envelopeId = `envelope-${++envelopes}`;
      const acked = new Promise<unknown>((resolve) => acks.set(envelopeId, resolve));
      socket!.write(frame(JSON.stringify({ envelope_id: envelopeId, type, payload, accepts_response_payload: true })));
      return acked;
    },
    close: () =>
      new Promise<void>((resolve) => {
        socket?.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
