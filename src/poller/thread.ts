/**
 * The poller in a worker thread of its own (VIDOPS_POLLER_THREAD, on by default with a store
 * two connections can share): its list pages, diffs, store writes and garbage no longer hold
 * up the event loop that acks Slack. The main thread keeps what lives there — metrics, App Home
 * viewers, the callback route — and hears of the rest through messages (thread-protocol.ts).
 * A thread that ends by itself is started again after a pause (1 s, doubling to a minute); the
 * leases it held run out and are claimed again, as after a replica's crash.
 */
import { once } from 'node:events';
import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { VideoRequestObserver } from '../api';
import type { Logger } from '../log';
import type { SlackCall } from '../metrics/slack';
import type { FromPollerThread, PollerThreadData, ThreadHeap, ToPollerThread } from './thread-protocol';

type ThreadAnswer = Extract<FromPollerThread, { id: number }>;

/** The worker's module beside this one: `.ts` under tsx or jest (loaded through tsx), `.js` once built. */
const WORKER_ENTRY = join(__dirname, `thread-worker${extname(__filename)}`);
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
if (workerData.entry.endsWith('.ts')) require('tsx/cjs');
require(workerData.entry);
`;

/** How long a question to the thread (a hint, its heap) waits for the answer. */
const ANSWER_TIMEOUT_MS = 5_000;
/**
 * The thread's young generation (V8's nursery, 3 semi-spaces): 6 MB instead of V8's default of
 * up to 48 MB. Its scavenges come more often and cost the thread, not the loop that acks Slack,
 * and the nursery is most of what a second heap would add to the process's memory.
 */
const YOUNG_GENERATION_MB = 6;
const MAX_RESTART_DELAY_MS = 60_000;

export interface PollerThreadOptions {
  data: PollerThreadData;
  logger: Logger;
  onDelivered(teamId: string): void;
  onVideoRequest: VideoRequestObserver;
  onSlackCall(call: SlackCall): void;
  /** The thread is up: its store is open (a SQLite file is checkpointed from its connection). */
  onRunning?(): void;
  /** The thread ended by itself (it is started again later); not called when stopped. */
  onEnded?(): void;
  /** The first pause before a thread that ended by itself is started again (default 1 s). */
  restartDelayMs?: number;
  /** How long `stop()` waits for the thread to finish its round before ending it (default 8 s). */
  stopTimeoutMs?: number;
}

export class PollerThread {
  readonly #options: PollerThreadOptions;
  readonly #logger: Logger;
  #worker: Worker | undefined;
  #stopping = false;
  #restarts = 0;
  #restartTimer: NodeJS.Timeout | undefined;
  #nextQuestion = 0;
  /** Questions sent to the thread, by id: each settles with the thread's answer, or undefined (no answer in time, or the thread ended). */
  readonly #questions = new Map<number, (answer: ThreadAnswer | undefined) => void>();

  constructor(options: PollerThreadOptions) {
    this.#options = options;
    this.#logger = options.logger.child({ component: 'poller-thread' });
  }

  start(): void {
    if (this.#worker || this.#stopping) return;
    const worker = new Worker(BOOTSTRAP, {
      eval: true,
      name: 'vidops-poller',
      workerData: { entry: WORKER_ENTRY, pollerThread: this.#options.data },
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    this.#worker = worker;
    worker.on('message', (message: FromPollerThread) => this.#receive(message));
    worker.on('error', (error) => this.#logger.error('the poller thread failed', { error }));
    worker.on('exit', (code) => {
      this.#worker = undefined;
      for (const settle of this.#questions.values()) settle(undefined);
      if (this.#stopping) return;
      this.#options.onEnded?.();
      const delayMs = Math.min(MAX_RESTART_DELAY_MS, (this.#options.restartDelayMs ?? 1_000) * 2 ** this.#restarts);
      this.#restarts += 1;
      this.#logger.warn('the poller thread ended; starting another', { code, delayMs });
      this.#restartTimer = setTimeout(() => this.start(), delayMs);
      this.#restartTimer.unref();
    });
  }

  /** A video service callback: the thread polls the watches it names at once. Resolves how many. */
  async hint(body: unknown): Promise<number> {
    const answer = await this.#ask((id) => ({ type: 'hint', id, body }));
    return answer?.type === 'hinted' ? answer.matched : 0;
  }

  /** The thread's V8 heap; undefined while no thread runs or when it does not answer in time. */
  async heap(): Promise<ThreadHeap | undefined> {
    const answer = await this.#ask((id) => ({ type: 'heap', id }));
    return answer?.type === 'heap' ? answer.heap : undefined;
  }

  #ask(question: (id: number) => ToPollerThread): Promise<ThreadAnswer | undefined> {
    const worker = this.#worker;
    if (!worker) return Promise.resolve(undefined);
    const id = ++this.#nextQuestion;
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle(undefined), ANSWER_TIMEOUT_MS);
      const settle = (answer: ThreadAnswer | undefined) => {
        clearTimeout(timer);
        this.#questions.delete(id);
        resolve(answer);
      };
      this.#questions.set(id, settle);
      this.#send(worker, question(id));
    });
  }

  /** Stops the thread after its cycle and delivery round (leases released, store closed), or ends it past the timeout. */
  async stop(): Promise<void> {
    this.#stopping = true;
    clearTimeout(this.#restartTimer);
    const worker = this.#worker;
    if (!worker) return;
    const exited = once(worker, 'exit');
    this.#send(worker, { type: 'stop' });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), this.#options.stopTimeoutMs ?? 8_000)));
    const outcome = await Promise.race([exited, timedOut]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      this.#logger.warn('the poller thread did not stop in time; ending it');
      await worker.terminate();
    }
  }

  #send(worker: Worker, message: ToPollerThread): void {
    worker.postMessage(message);
  }

  #receive(message: FromPollerThread): void {
    switch (message.type) {
      case 'started':
        this.#restarts = 0;
        this.#options.onRunning?.();
        return;
      case 'log':
        return this.#options.logger.writeLine(message.line);
      case 'delivered':
        return this.#options.onDelivered(message.teamId);
      case 'video-request':
        return this.#options.onVideoRequest(message.event);
      case 'slack-call':
        return this.#options.onSlackCall(message.call);
      case 'hinted':
      case 'heap':
        return this.#questions.get(message.id)?.(message);
    }
  }
}
