/**
 * The poller's worker thread: a replica without a receiver. It opens its own connection to the
 * store, its own project clients (with the secrets rotated from Slack, reloaded as every
 * replica does) and its own Slack client, runs PollerService, and reports to the main thread
 * what the main thread keeps: metrics, App Home refreshes. Leases make it share the work with
 * other replicas exactly as a process would.
 */
import { getHeapStatistics } from 'node:v8';
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { SecretBox } from '../crypto';
import { type Logger, createLogger } from '../log';
import { observedFetch } from '../metrics/slack';
import { rememberConfigured } from '../scrub';
import { loadStoredSecrets, startSecretReloader } from '../secrets/project-secrets';
import { ProjectRegistry, videoClientFactory } from '../projects';
import { type VidopsStore, createStore } from '../store';
import { PollerService } from './service';
import { posterClient, webClientPoster } from './slack-poster';
import type { FromPollerThread, PollerThreadData, ThreadHeap, ToPollerThread } from './thread-protocol';

export async function runPollerThread(data: PollerThreadData, port: MessagePort): Promise<void> {
  const tell = (message: FromPollerThread) => port.postMessage(message);
  rememberConfigured(data.secrets);
  const logger = createLogger({
    level: data.logLevel,
    bindings: { service: 'vidops', thread: 'poller' },
    stream: { write: (line: string) => tell({ type: 'log', line }) },
  });
  // Listening at once: a stop or a hint sent while the thread is still starting waits for it.
  let resolveRunning: (running: Running | undefined) => void = () => {};
  const running = new Promise<Running | undefined>((resolve) => (resolveRunning = resolve));
  port.on('message', (message: ToPollerThread) => {
    if (message.type === 'heap') return tell({ type: 'heap', id: message.id, heap: heapFigures() });
    void running.then((r) => (message.type === 'hint' ? hint(r, message.id, message.body) : stop(r)));
  });
  const hint = (r: Running | undefined, id: number, body: unknown) =>
    (r ? r.service.hint(body) : Promise.resolve(0)).then(
      (matched) => tell({ type: 'hinted', id, matched }),
      (error: unknown) => {
        logger.warn('a callback hint failed', { error });
        tell({ type: 'hinted', id, matched: 0 });
      },
    );
  const stop = async (r: Running | undefined) => {
    if (r) {
      await r.service.stop();
      r.reloader.stop();
      await r.store.close();
    }
    // The thread ends with its port: the main thread waits for that exit.
    port.close();
  };
  try {
    const started = await start(data, logger, tell);
    resolveRunning(started);
    tell({ type: 'started' });
  } catch (error) {
    resolveRunning(undefined);
    logger.error('the poller thread could not start', { error });
    // The thread ends once its port is closed (its line delivered first); the main thread starts another after a pause.
    port.close();
    setTimeout(() => process.exit(1), 1_000).unref();
  }
}

function heapFigures(): ThreadHeap {
  const heap = getHeapStatistics();
  return { usedBytes: heap.used_heap_size, totalBytes: heap.total_heap_size, externalBytes: heap.external_memory };
}

interface Running {
  service: PollerService;
  reloader: { stop(): void };
  store: VidopsStore;
}

async function start(data: PollerThreadData, logger: Logger, tell: (message: FromPollerThread) => void): Promise<Running> {
  const store = createStore(data.databaseUrl, { logger, secondary: true });
  const projects = new ProjectRegistry(
    data.projects,
    data.defaultProject,
    data.video,
    videoClientFactory({ observer: (event) => tell({ type: 'video-request', event }) }),
  );
  const secretDeps = {
    store,
    projects,
    clock: Date.now,
    ...(data.secretKey && { secretBox: new SecretBox(Buffer.from(data.secretKey)) }),
  };
  const secretsLogger = logger.child({ component: 'secrets' });
  const seen = new Map<string, number>();
  await loadStoredSecrets(secretDeps, { logger: secretsLogger, seen });
  const reloader = startSecretReloader(secretDeps, { logger: secretsLogger, seen });
  const client = posterClient({
    botToken: data.slack.botToken,
    slackApiUrl: data.slack.apiUrl,
    logger,
    fetch: observedFetch((call) => tell({ type: 'slack-call', call })),
  });
  const service = new PollerService({
    store,
    clientFor: (name) => projects.client(name),
    poster: webClientPoster(client, { onDelivered: (teamId) => tell({ type: 'delivered', teamId }) }),
    settings: data.settings,
    logger,
  });
  service.start();
  return { service, reloader, store };
}

const pollerThreadData = (workerData as { pollerThread?: PollerThreadData } | undefined)?.pollerThread;
if (parentPort && pollerThreadData) void runPollerThread(pollerThreadData, parentPort);
