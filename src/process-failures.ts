/**
 * What the process does with a failure nothing else caught.
 *
 * - An unhandled promise rejection is logged (error) and the process goes on serving: every
 *   request runs in its own promise chain, so one that failed unobserved leaves the others and
 *   the shared state as they were — stopping would drop every request in flight for one bug.
 * - An uncaught exception is logged (error), then the process drains (`stop()`: no new work,
 *   requests in flight finished, leases released, store closed) and exits 1: a throw that
 *   unwound through synchronous code may have left state half-changed, so the process is not
 *   trusted to go on; the supervisor (systemd, Kubernetes…) starts a fresh one.
 */
export interface FailureLog {
  error(message: string, fields?: Record<string, unknown>): void;
}

export interface ProcessEvents {
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
  on(event: 'uncaughtException', listener: (error: Error) => void): unknown;
}

/** Longest the drain after an uncaught exception may take before the process exits anyway. */
export const CRASH_STOP_BUDGET_MS = 10_000;

export function handleProcessFailures(
  proc: ProcessEvents,
  log: FailureLog,
  options: { stop?: () => Promise<void>; exit?: (code: number) => void; stopBudgetMs?: number } = {},
): void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let crashing = false;
  proc.on('unhandledRejection', (reason) => {
    log.error('unhandled promise rejection; the process goes on serving', { error: reason });
  });
  proc.on('uncaughtException', (error) => {
    log.error('uncaught exception; draining and exiting', { error });
    if (crashing) return;
    crashing = true;
    const force = setTimeout(() => exit(1), options.stopBudgetMs ?? CRASH_STOP_BUDGET_MS);
    force.unref?.();
    void Promise.resolve()
      .then(() => options.stop?.())
      .catch((stopError: unknown) => log.error('could not drain after an uncaught exception', { error: stopError }))
      .finally(() => {
        clearTimeout(force);
        exit(1);
      });
  });
}
