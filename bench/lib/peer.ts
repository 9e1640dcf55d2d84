/**
 * Request/answer messages between a bench and the processes it forks: `serve` in the child
 * answers each `{id, op}` with `{id, ok, result | error}`; `Peer` in the parent calls them.
 * The op `exit` ends the child normally (after `onExit`), so profilers can write their output.
 */
import type { ChildProcess } from 'node:child_process';

type Message = { id: number; op: string; [key: string]: unknown };
export type Handlers = Record<string, (msg: Message) => Promise<unknown> | unknown>;

export function serve(handlers: Handlers, onExit: () => Promise<unknown> | void = () => undefined): void {
  // A parent that died (a broken run exits at once) leaves no orphan serving ports behind.
  process.once('disconnect', () => process.exit(0));
  process.on('message', (msg: Message) => {
    if (msg.op === 'exit') {
      void Promise.resolve()
        .then(onExit)
        .finally(() => process.exit(0));
      return;
    }
    void (async () => {
      try {
        const handler = handlers[msg.op];
        if (!handler) throw new Error(`unknown op ${msg.op}`);
        process.send!({ id: msg.id, ok: true, result: await handler(msg) });
      } catch (error) {
        process.send!({ id: msg.id, ok: false, error: String(error) });
      }
    })();
  });
}

export class Peer {
  #next = 1;
  readonly #pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor(readonly child: ChildProcess) {
    child.on('message', (msg: { id: number; ok: boolean; result?: unknown; error?: string }) => {
      const waiting = this.#pending.get(msg.id);
      if (!waiting) return;
      this.#pending.delete(msg.id);
      if (msg.ok) waiting.resolve(msg.result);
      else waiting.reject(new Error(msg.error));
    });
    child.once('exit', (code, signal) => {
      for (const waiting of this.#pending.values()) waiting.reject(new Error(`the child process exited (${signal ?? code}) before answering`));
      this.#pending.clear();
    });
  }

  /** `args` travel beside `id` and `op`, so they must not use those names. */
  call<T>(op: string, args: Record<string, unknown> = {}): Promise<T> {
    if ('id' in args || 'op' in args) throw new Error("a call's arguments cannot be named id or op");
    const id = this.#next++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ id, op, ...args });
    });
  }

  stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.send({ id: 0, op: 'exit' });
    });
  }
}
