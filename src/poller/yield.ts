/**
 * Lets the event loop run what is waiting (Slack requests to ack, HTTP answers) before a long
 * job goes on. better-sqlite3 is synchronous: without a yield, a poll cycle's store writes run
 * back to back and hold the loop for as long as the cycle lasts.
 *
 * `setImmediate` is looked up at call time, like `globalTimers`, so that under jest's fake
 * timers a cycle advances with the simulated time.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => {
    setImmediate(resolve);
  });
}
