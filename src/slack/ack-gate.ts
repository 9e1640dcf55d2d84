/**
 * Acks first. Slack gives the app 3 s to acknowledge each request, and the ack is what a person
 * on a phone waits on; the work after an ack (video service calls, store writes, notices) can
 * wait a few milliseconds. Node runs both on one thread, so without care a burst of follow-up
 * work delays the next acks.
 *
 * The gate counts Slack requests in flight (received, not yet answered). Work after an ack
 * awaits `idle()` at its start and between its steps; waiters are let through one per event-loop
 * turn, only once no request has been in flight for `quietMs`, and each at the latest after
 * `maxWaitMs`, so a steady stream of requests cannot starve them.
 */
import type { App } from '@slack/bolt';
import { DuplicateDelivery } from './dedupe';

export interface AckGateOptions {
  /** How long the receiver must have had nothing in flight before work resumes (default 20 ms). */
  quietMs?: number;
  /** The longest any piece of work waits (default 5 s). */
  maxWaitMs?: number;
  now?: () => number;
}

interface Waiter {
  resolve: () => void;
  deadline: number;
}

export class AckGate {
  private inFlight = 0;
  private busyUntil = 0;
  private readonly waiters: Waiter[] = [];
  private timer: NodeJS.Timeout | undefined;
  private draining = false;
  private readonly quietMs: number;
  private readonly maxWaitMs: number;
  private readonly now: () => number;

  constructor(options: AckGateOptions = {}) {
    this.quietMs = options.quietMs ?? 20;
    this.maxWaitMs = options.maxWaitMs ?? 5_000;
    this.now = options.now ?? (() => performance.now());
  }

  /** A Slack request arrived. */
  requestStarted(): void {
    this.inFlight++;
  }

  /** A Slack request was answered (or its connection closed). */
  requestFinished(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.busyUntil = this.now() + this.quietMs;
    this.schedule();
  }

  get pending(): number {
    return this.waiters.length;
  }

  /**
   * Resolves when work may continue without holding up an ack. Even when all is quiet it
   * resolves on the next event-loop turn, so a request that arrived meanwhile is read first.
   */
  idle(): Promise<void> {
    if (this.waiters.length === 0 && this.isQuiet()) return new Promise<void>((resolve) => setImmediate(resolve));
    return new Promise<void>((resolve) => {
      this.waiters.push({ resolve, deadline: this.now() + this.maxWaitMs });
      this.schedule();
    });
  }

  private isQuiet(): boolean {
    return this.inFlight === 0 && this.now() >= this.busyUntil;
  }

  private schedule(): void {
    if (this.draining || this.waiters.length === 0) return;
    const now = this.now();
    const due = Math.min(this.waiters[0]!.deadline, this.inFlight === 0 ? this.busyUntil : Infinity);
    if (due <= now) {
      this.drain();
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.schedule();
      },
      Math.max(1, Math.ceil(due - now)),
    );
  }

  /** Lets waiters through one per event-loop turn, so requests arriving meanwhile go first. */
  private drain(): void {
    this.draining = true;
    setImmediate(() => {
      this.draining = false;
      const head = this.waiters[0];
      if (!head) return;
      if (this.isQuiet() || head.deadline <= this.now()) {
        this.waiters.shift();
        head.resolve();
      }
      this.schedule();
    });
  }
}

type Listener = (args: never) => unknown;
type AckFn = (response?: unknown) => Promise<void>;
type AfterAck = (body: Record<string, unknown>, context: Record<string, unknown>) => Promise<void>;
const REGISTRATIONS = new Set(['command', 'action', 'view', 'shortcut', 'options']);

/**
 * The ack discipline in one place: every listener registered through the returned App gets an
 * `ack` that, once Slack has its answer, waits for `gate.idle()` before the handler goes on.
 * Handlers just `await ack()` first. `countRequests` makes the listeners count themselves in
 * flight, for receivers that do not (Socket Mode; the HTTP receiver counts from the first byte).
 * `afterAck` runs once the answer is sent, before the handler goes on; it may end the handler by
 * throwing `DuplicateDelivery` (a copy of a delivery already served), which is not an error.
 */
export function ackFirst(app: App, gate: AckGate, options: { countRequests: boolean; afterAck?: AfterAck }): App {
  const wrap =
    (listener: Listener) =>
    async (args: { ack?: AckFn; body?: unknown; context?: Record<string, unknown> }): Promise<unknown> => {
      const original = args.ack;
      if (typeof original !== 'function') return (listener as (a: unknown) => unknown)(args);
      let open = options.countRequests;
      if (open) gate.requestStarted();
      const finish = (): void => {
        if (!open) return;
        open = false;
        gate.requestFinished();
      };
      const ack: AckFn = async (response) => {
        try {
          await original(response);
        } finally {
          finish();
        }
        await options.afterAck?.((args.body ?? {}) as Record<string, unknown>, args.context ?? {});
        await gate.idle();
      };
      try {
        return await (listener as (a: unknown) => unknown)({ ...args, ack });
      } catch (error) {
        if (error instanceof DuplicateDelivery) return undefined;
        throw error;
      } finally {
        finish();
      }
    };
  return new Proxy(app, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const bound = (value as (...args: unknown[]) => unknown).bind(target);
      if (typeof property !== 'string' || !REGISTRATIONS.has(property)) return bound;
      return (...args: unknown[]) => bound(...args.map((arg, i) => (i > 0 && typeof arg === 'function' ? wrap(arg as Listener) : arg)));
    },
  });
}
