/** What the security suite shares: raw HTTP posts (paths sent as spelled) and a second app on the same services. */
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '@slack/bolt';
import { createApp, type SlackAppOptions } from '../../src/app';
import { BOT_TOKEN, SIGNING_SECRET, type TestApp } from '../harness/app';
import type { SignedRequest } from '../harness/signing';

/**
 * Posts with the path exactly as given: fetch() would normalise `/slack/./events` and drop
 * `#f` before sending, which is what an attacker's own client does not do.
 */
export function rawPost(baseUrl: string, path: string, request: SignedRequest): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: hostname, port, method: 'POST', path, headers: { ...request.headers, 'content-length': Buffer.byteLength(request.body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}

/** Another Bolt app over the test app's services (same store, emulator and fake Slack), with options the harness does not set. */
export async function secondApp(t: TestApp, options: Partial<SlackAppOptions>): Promise<{ url: string; app: App; stop(): Promise<void> }> {
  const app = createApp(t.services, { botToken: BOT_TOKEN, signingSecret: SIGNING_SECRET, apiUrl: t.slack.apiUrl, retryConfig: { retries: 0 }, ...options });
  const server = (await app.start(0)) as Server;
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, app, stop: async () => void (await app.stop()) };
}

/** Log lines written to a test app, parsed. */
export function logCapture(): { stream: { write(line: string): void }; records: Record<string, unknown>[] } {
  const records: Record<string, unknown>[] = [];
  return {
    stream: {
      write: (line: string) => {
        records.push(JSON.parse(line) as Record<string, unknown>);
      },
    },
    records,
  };
}

/** The unhandled rejections seen while the suite runs (a test asserts there are none); listens from beforeAll to afterAll. */
export function collectUnhandledRejections(): unknown[] {
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => void rejections.push(reason);
  beforeAll(() => void process.on('unhandledRejection', onRejection));
  afterAll(() => void process.off('unhandledRejection', onRejection));
  return rejections;
}
