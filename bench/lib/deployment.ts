/**
 * How the app is launched in a deployment (README, "Deployment"; `npm start` sets the same): the
 * benches run it so, or they would measure a process nobody runs. Both settings trade a little
 * CPU for memory, measured in bench/README.md:
 * - a young generation of 2 MB semi-spaces instead of V8's default (up to 16 MB each), whose
 *   scavenges stay short with the small live set of a request;
 * - two glibc malloc arenas instead of up to eight per CPU, which the process's threads (the
 *   poller's, libuv's pool, V8's helpers) would each fill and keep.
 */
export const DEPLOYMENT_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2'];

export const DEPLOYMENT_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

/** This process's environment with the deployment's settings, unless the caller set them. */
export function deploymentEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...DEPLOYMENT_ENV, ...env };
}
