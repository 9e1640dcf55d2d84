/**
 * How the app is launched in a deployment (README, "Deployment"; `npm start` sets the same): the
 * benches run it so, or they would measure a process nobody runs. Both settings trade a little
 * CPU for memory, measured in bench/README.md:
 * - a young generation of 2 MB semi-spaces instead of V8's default (up to 16 MB each), whose
 *   scavenges stay short with the small live set of a request;
 * - two glibc malloc arenas instead of up to eight per CPU, which the process's threads (the
 *   poller's, libuv's pool, V8's helpers) would each fill and keep;
 * - undici's HTTP parser (llhttp, WebAssembly) left on V8's baseline compiler: its tier-up to
 *   TurboFan, once per heap, takes ~20 MB of malloc'd compiler memory that the arena then keeps,
 *   and parsing HTTP is not where the adapter's time goes.
 */
export const DEPLOYMENT_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2', '--no-wasm-tier-up'];

export const DEPLOYMENT_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

/** This process's environment with the deployment's settings, unless the caller set them. */
export function deploymentEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...DEPLOYMENT_ENV, ...env };
}
