export type FaultKind = 'status' | 'hang' | 'reset' | 'malformed';
export const FAULT_KINDS: readonly FaultKind[] = ['status', 'hang', 'reset', 'malformed'];

export interface Fault {
  /** Only requests with this method (any when absent). */
  method?: string;
  /** Substring of, or regular expression source matched against, the request path. */
  path: string;
  /** How many matching requests it affects (default 1). */
  count?: number;
  kind: FaultKind;
  /** For `status`: the status answered (default 500). */
  status?: number;
  /** Sent as `Retry-After` (useful with 429). */
  retryAfterSeconds?: number;
  /** Body to answer instead of the default. */
  body?: string;
  /** Content-Type of `body` (default JSON), e.g. `application/xml` for an XML error page. */
  contentType?: string;
}

interface ArmedFault {
  fault: Fault;
  remaining: number;
  pattern: RegExp | undefined;
}

function compile(source: string): RegExp | undefined {
  try {
    return new RegExp(source);
  } catch {
    return undefined;
  }
}

/** Faults waiting for matching public requests; each one is consumed `count` times. */
export class FaultRegistry {
  private armed: ArmedFault[] = [];
  /** Requests a `hang` fault holds, each answered normally when released. */
  private held: (() => void)[] = [];

  /** Keeps a hung request; `answer` serves it as if no fault had been injected. */
  hold(answer: () => void): void {
    this.held.push(answer);
  }

  /** Answers every request held by a `hang` fault (those whose client gave up get nothing); how many there were. */
  releaseHeld(): number {
    const held = this.held;
    this.held = [];
    for (const answer of held) answer();
    return held.length;
  }

  /** Forgets the held requests without answering them. */
  dropHeld(): void {
    this.held = [];
  }

  add(fault: Fault): void {
    if (typeof fault.path !== 'string') throw new Error("A fault needs a 'path' (substring or regex source)");
    if (!FAULT_KINDS.includes(fault.kind)) throw new Error(`Fault kind must be one of ${FAULT_KINDS.join(', ')}`);
    const count = fault.count ?? 1;
    if (!Number.isInteger(count) || count < 1) throw new Error('Fault count must be a positive integer');
    const status = fault.status ?? 500;
    if (!Number.isInteger(status) || status < 100 || status > 599) throw new Error('Fault status must be an HTTP status code');
    this.armed.push({ fault: { ...fault }, remaining: count, pattern: compile(fault.path) });
  }

  clear(): void {
    this.armed = [];
  }

  /** The first fault matching this request, consuming one of its uses. */
  take(method: string, path: string): Fault | undefined {
    const entry = this.armed.find(
      (a) => (a.fault.method === undefined || a.fault.method.toUpperCase() === method) && (path.includes(a.fault.path) || (a.pattern?.test(path) ?? false)),
    );
    if (!entry) return undefined;
    entry.remaining -= 1;
    if (entry.remaining === 0) this.armed = this.armed.filter((a) => a !== entry);
    return entry.fault;
  }

  list(): Fault[] {
    return this.armed.map((a) => ({ ...a.fault, count: a.remaining }));
  }
}
