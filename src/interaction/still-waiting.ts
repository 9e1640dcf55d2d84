/**
 * Never silent while the video service is slow. Every Slack request gets a `Patience`
 * (patient-app.ts), carried through its awaits with AsyncLocalStorage, and every call a project's
 * client makes reports to it (`trackVideoCalls`):
 *
 * - a call unanswered after `stillWaitingMs`, before the asker had any answer, shows them
 *   "Still waiting for the video service…"; the next answer replaces that message;
 * - after `boundMs` the request says what is known (the change path words it, see change.ts;
 *   otherwise `atBound`), and whatever the request answers later is dropped with a log line, so
 *   two answers never contradict each other.
 *
 * Every answer to the asker goes through `respond` (or the modal's `inModal`), one after the
 * other, so the waiting line can neither overtake nor follow the answer that replaces it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from '../log';
import type { RespondFn } from '../slack/respond';
import type { SlackMessage } from '../views/blocks';
import { stillWaitingMessage } from '../views/still-waiting';

export interface PatienceSettings {
  /** How long a video call may go unanswered before the asker is told that vidops is waiting. */
  stillWaitingMs: number;
  /** How long a request may wait in all before it says what is known. */
  boundMs: number;
}

export const DEFAULT_PATIENCE: Readonly<PatienceSettings> = Object.freeze({ stillWaitingMs: 2_000, boundMs: 20_000 });

/**
 * How answers reach the asker through the response_url. `replace`: the waiting line is a message
 * of its own, which the next answer replaces (a slash command). `replace-source`: a button on the
 * asker's own ephemeral message, which the waiting line replaces, and then the answer.
 * `append`: a button on a channel message, whose response_url could replace only that message (a
 * card everyone sees), so the waiting line is a message of its own and the answer follows it.
 */
export type ReplyMode = 'replace' | 'replace-source' | 'append';

export interface PatienceOptions {
  settings: PatienceSettings;
  /** The request's response_url; without one, only a modal the handler answers in (`inModal`) shows anything. */
  respond?: RespondFn;
  mode: ReplyMode;
  logger: Logger;
  /** What to say when the bound passes while a video call is unanswered and nothing else words it. */
  atBound?: (seconds: number) => SlackMessage;
}

/** What a call raced against the bound came to. */
export type Raced<T> = { answered: true; value: T } | { answered: false };

type State = 'quiet' | 'waiting' | 'answered' | 'closed';

/** Replaces a modal's content with a message (actions/modal.ts `showInModal`). */
export type ShowInModal = (message: SlackMessage) => Promise<unknown>;

export class Patience {
  readonly #options: PatienceOptions;
  #pending = 0;
  #state: State = 'quiet';
  #stillTimer: NodeJS.Timeout | undefined;
  #boundTimer: NodeJS.Timeout | undefined;
  #boundPassed = false;
  #resolveBound: () => void = () => undefined;
  readonly #bound: Promise<void>;
  /** Calls raced against the bound by the change path, which then words the answer itself. */
  #racing = 0;
  #queue: Promise<unknown> = Promise.resolve();
  /** The modal the request answers in (a form's submission, a form a button opened): the asker looks at it. */
  #modal: ShowInModal | undefined;
  #atBound: ((seconds: number) => SlackMessage) | undefined;
  /** Where the waiting line is. */
  #waitingIn: 'respond' | 'modal' | undefined;
  /** Bolt's respond behind the queue; undefined when the request has no response_url. */
  readonly respond: RespondFn | undefined;

  constructor(options: PatienceOptions) {
    this.#options = options;
    this.#atBound = options.atBound;
    this.#bound = new Promise<void>((resolve) => (this.#resolveBound = resolve));
    const respond = options.respond;
    this.respond = respond
      ? (message) => {
          const replace = this.#state === 'waiting' && this.#waitingIn === 'respond' && this.#options.mode !== 'append' && message.delete_original !== true;
          return this.#deliver(message.text, () => respond(replace ? { ...message, replace_original: true } : message));
        }
      : undefined;
  }

  get boundSeconds(): number {
    return Math.round(this.#options.settings.boundMs / 1000);
  }

  /** Whether the asker already has the bound's answer (later answers are dropped). */
  get closed(): boolean {
    return this.#state === 'closed';
  }

  /** Whether the bound has passed (a change that has not called yet does not start). */
  get boundPassed(): boolean {
    return this.#boundPassed;
  }

  /**
   * The request answers in a modal (a form's submission): the waiting line and the bound's answer
   * go there too. Returns `show` behind the queue, for the handler's own answers.
   */
  inModal(show: ShowInModal): ShowInModal {
    this.#modal = show;
    return (message) => this.#deliver(message.text, () => show(message));
  }

  /** What to say when the bound passes while a video call is unanswered (instead of `atBound`). */
  sayAtBound(atBound: (seconds: number) => SlackMessage): void {
    this.#atBound = atBound;
  }

  /** Starts the overall bound; once per request. */
  start(): void {
    this.#boundTimer = setTimeout(() => this.#boundReached(), this.#options.settings.boundMs);
    this.#boundTimer.unref();
  }

  /**
   * Clears the timers and returns once every answer queued was posted. A waiting line nothing
   * replaced (the answer went to the channel) is replaced by `unanswered`.
   */
  async finish(unanswered?: SlackMessage): Promise<void> {
    clearTimeout(this.#stillTimer);
    clearTimeout(this.#boundTimer);
    this.#stillTimer = undefined;
    this.#boundTimer = undefined;
    if (unanswered && this.#state === 'waiting') {
      if (this.#waitingIn === 'modal') void this.inModal(this.#modal!)(unanswered).catch(() => undefined);
      else if (this.#options.mode !== 'append') void this.respond?.({ ...unanswered, response_type: 'ephemeral' }).catch(() => undefined);
    }
    await this.#queue;
  }

  /** A video call began; the function returned ends it. */
  callStarted(): () => void {
    this.#pending++;
    if (this.#state === 'quiet' && this.#stillTimer === undefined && this.#boundTimer !== undefined) {
      this.#stillTimer = setTimeout(() => this.#stillWaiting(), this.#options.settings.stillWaitingMs);
      this.#stillTimer.unref();
    }
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#pending--;
      if (this.#pending === 0) {
        clearTimeout(this.#stillTimer);
        this.#stillTimer = undefined;
      }
    };
  }

  /**
   * Waits for `work` until the bound. When the bound passes first, the caller words what is
   * known (its answer is the last one shown: call `close()` after it); the late outcome of
   * `work` is logged and dropped. Rejections of `work` before the bound are the caller's.
   */
  async race<T>(work: Promise<T>, what: string): Promise<Raced<T>> {
    this.#racing++;
    try {
      const first = await Promise.race([work.then((value) => ({ answered: true as const, value })), this.#bound.then(() => ({ answered: false as const }))]);
      if (!first.answered) {
        work.then(
          () => this.#options.logger.info('a late answer of the video service was dropped: the asker was told the outcome is unknown', { what, late: 'ok' }),
          (error: unknown) =>
            this.#options.logger.info('a late failure of the video service was dropped: the asker was told the outcome is unknown', { what, error }),
        );
      }
      return first;
    } finally {
      this.#racing--;
    }
  }

  /** Nothing answered from now on reaches the asker (the bound's answer stands). */
  close(): void {
    this.#state = 'closed';
  }

  /** An answer: after the waiting line (which it replaces), or dropped once the bound's answer stands. */
  #deliver(text: string, post: () => Promise<unknown>): Promise<unknown> {
    if (this.#state === 'closed') {
      this.#options.logger.info('an answer after the bound was dropped: the asker has the bound’s answer', { text });
      return Promise.resolve();
    }
    this.#state = 'answered';
    return this.#enqueue(post);
  }

  #stillWaiting(): void {
    this.#stillTimer = undefined;
    if (this.#pending === 0 || this.#state !== 'quiet') return;
    const respond = this.#options.respond;
    const modal = this.#modal;
    if (modal) {
      this.#state = 'waiting';
      this.#waitingIn = 'modal';
      void this.#enqueue(() => modal(stillWaitingMessage()));
    } else if (respond) {
      this.#state = 'waiting';
      this.#waitingIn = 'respond';
      void this.#enqueue(() => respond({ ...stillWaitingMessage(), response_type: 'ephemeral', replace_original: this.#options.mode === 'replace-source' }));
    }
  }

  #boundReached(): void {
    this.#boundTimer = undefined;
    this.#boundPassed = true;
    this.#resolveBound();
    // The change path words its own answer; a request not waiting on the service is not judged here.
    if (this.#racing > 0 || this.#pending === 0 || this.#state === 'closed' || !this.#atBound) return;
    const message = this.#atBound(this.boundSeconds);
    if (this.#modal) void this.inModal(this.#modal)(message).catch(() => undefined);
    else if (this.respond) void this.respond({ ...message, response_type: 'ephemeral' }).catch(() => undefined);
    else return;
    this.close();
  }

  #enqueue(post: () => Promise<unknown>): Promise<unknown> {
    const posted = this.#queue.then(post);
    // A failed post is the poster's to report; the queue goes on.
    this.#queue = posted.catch((error: unknown) => this.#options.logger.warn('could not show the asker an answer', { error }));
    return posted;
  }
}

const current = new AsyncLocalStorage<Patience>();

/** Runs a request's work with its Patience, which the video calls it makes report to. */
export function runPatiently<T>(patience: Patience, work: () => T): T {
  return current.run(patience, work);
}

export function currentPatience(): Patience | undefined {
  return current.getStore();
}

const areaProxies = new WeakMap<object, object>();

/** `method` called on `target`, reporting to the current request's Patience while its promise is pending. */
function tracked(method: (...args: unknown[]) => unknown, target: object): (...args: unknown[]) => unknown {
  return (...args) => {
    const patience = current.getStore();
    if (!patience) return method.apply(target, args);
    const ended = patience.callStarted();
    try {
      const result = method.apply(target, args);
      if (result instanceof Promise) return result.finally(ended);
      ended();
      return result;
    } catch (error) {
      ended();
      throw error;
    }
  };
}

function trackArea<A extends object>(area: A): A {
  const known = areaProxies.get(area);
  if (known) return known as A;
  const proxy = new Proxy(area, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? tracked(value as (...args: unknown[]) => unknown, target) : value;
    },
  });
  areaProxies.set(area, proxy);
  return proxy;
}

/**
 * A client of the video service whose calls — `client.archives.stop(…)` on a project's REST
 * client, `client.projectUsage(…)` on an Insights client — report to the Patience of the request
 * making them; calls made outside a request (the poller, the report scheduler) are untouched.
 */
export function trackVideoCalls<C extends object>(client: C): C {
  return new Proxy(client, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value === 'function') return tracked(value as (...args: unknown[]) => unknown, target);
      if (value !== null && typeof value === 'object') return trackArea(value);
      return value;
    },
  });
}
