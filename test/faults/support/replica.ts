/**
 * A second vidops replica beside a TestApp: its own Bolt app and services over its own store
 * connection, sharing the first one's emulator, fake Slack and (when both use PostgreSQL) the
 * database — as two processes behind one load balancer.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RETRY_FAST, VideoClient } from '../../../src/api';
import { createApp } from '../../../src/app';
import { type LogStream, createLogger } from '../../../src/log';
import { parsePolicy } from '../../../src/rbac/policy';
import { createServices } from '../../../src/services';
import type { VidopsStore } from '../../../src/store/types';
import { BOT_TOKEN, SIGNING_SECRET, TEST_POLICY, type TestApp } from '../../harness/app';

export interface Replica {
  url: string;
  close(): Promise<void>;
}

export interface ReplicaOptions {
  /** Where its info lines go (default nowhere). */
  logStream?: LogStream;
  /** The video client's timeouts (default the adapter's), e.g. a short headers timeout for hangs. */
  videoTimeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number };
}

export async function startReplica(t: TestApp, store: VidopsStore, options: ReplicaOptions = {}): Promise<Replica> {
  const { logStream, videoTimeouts } = options;
  await store.migrate();
  const parsed = parsePolicy(TEST_POLICY);
  if (!parsed.ok) throw new Error(parsed.problems.join('; '));
  const services = createServices({
    store,
    logger: createLogger(logStream ? { level: 'info', stream: logStream } : { level: 'silent' }),
    projects: [{ name: 'prod', apiKey: t.project.apiKey, apiSecret: t.project.apiSecret, channels: [] }],
    defaultProject: 'prod',
    video: { apiUrl: t.emulator.baseUrl },
    policy: parsed.policy,
    clientFactory: (p, video) =>
      new VideoClient({
        baseUrl: video.apiUrl,
        apiKey: p.apiKey,
        apiSecret: p.apiSecret,
        retry: RETRY_FAST,
        ...(videoTimeouts && { timeouts: videoTimeouts }),
      }),
  });
  const app = createApp(services, {
    botToken: BOT_TOKEN,
    signingSecret: SIGNING_SECRET,
    apiUrl: t.slack.apiUrl,
    retryConfig: { retries: 2, minTimeout: 0, maxTimeout: 1 },
  });
  const server = (await app.start(0)) as Server;
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await app.stop();
      await store.close();
    },
  };
}
