/**
 * WAL checkpoints off the event loop that acks Slack. SQLite normally checkpoints inside
 * whichever commit fills the WAL past 1,000 pages: that commit copies the pages into the database
 * file and syncs it, holding the event loop for milliseconds (tens under load) while Slack
 * requests wait. With `wal_autocheckpoint = 0` on the app's connection, another connection
 * checkpoints every `intervalMs` instead (PASSIVE: it never waits for, nor blocks, the app's
 * reads and writes), which also keeps the WAL short. That connection is a worker's of its own
 * (`startCheckpointer`), or the poller thread's (`checkpointOnConnection`), which spares the
 * process a third V8 heap (~15 MB of RSS).
 */
import type Database from 'better-sqlite3';
import { Worker } from 'node:worker_threads';

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort.postMessage({ failed: String(error && error.message) });
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  /** Stops checkpointing; resolves once the worker's connection is closed. */
  stop(): Promise<void>;
}

/**
 * Starts checkpointing `path` every `intervalMs`. `onFailure` runs once if the worker stops
 * working (its thread died or a checkpoint failed), so the caller can checkpoint on its own again.
 */
export function startCheckpointer(path: string, intervalMs: number, onFailure: (reason: string) => void): Checkpointer {
  const worker = new Worker(WORKER, { eval: true, workerData: { path, intervalMs, driver: require.resolve('better-sqlite3') } });
  // Never what keeps the process alive.
  worker.unref();
  let failed = false;
  const fail = (reason: string): void => {
    if (failed) return;
    failed = true;
    onFailure(reason);
  };
  worker.on('message', (message: { failed?: string }) => {
    if (message.failed !== undefined) fail(message.failed);
  });
  worker.on('error', (error) => fail(error.message));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    async stop() {
      worker.postMessage('stop');
      await exited;
    },
  };
}

/**
 * Checkpoints on `db` itself, in the thread that owns it (the poller's: never the main thread).
 * A checkpoint that throws stops the timer and calls `onFailure` once.
 */
export function checkpointOnConnection(db: Database.Database, intervalMs: number, onFailure: (reason: string) => void): Checkpointer {
  const timer = setInterval(() => {
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch (error) {
      clearInterval(timer);
      onFailure(String((error as Error | undefined)?.message));
    }
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
    },
  };
}
