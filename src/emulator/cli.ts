import { parseCliArgs } from './cli-args';
import { startEmulator, type RunningEmulator } from './index';

/** Seeds a routed demo session: two camera publishers and one screen share. */
function seedDemo(emu: RunningEmulator, apiKey: string): string {
  const { control } = emu;
  const sessionId = control.createSession(apiKey, { mediaMode: 'routed' });
  const alice = control.connect(apiKey, sessionId, { data: 'name=Alice' });
  const bob = control.connect(apiKey, sessionId, { data: 'name=Bob' });
  control.publish(apiKey, sessionId, alice, { videoType: 'camera', name: 'Alice' });
  control.publish(apiKey, sessionId, bob, { videoType: 'camera', name: 'Bob' });
  control.publish(apiKey, sessionId, bob, { videoType: 'screen', name: 'Bob (screen)' });
  return sessionId;
}

async function main(): Promise<void> {
  const args = parseCliArgs(process.argv.slice(2));
  const emu = await startEmulator({
    port: args.port,
    clock: 'real',
    ...(args.host === undefined ? {} : { host: args.host }),
    ...(args.accountKey === undefined ? {} : { accountKey: args.accountKey }),
    ...(args.accountSecret === undefined ? {} : { accountSecret: args.accountSecret }),
  });
  const project = emu.control.createProject({
    name: 'Demo project',
    // The demo shows everything: sessionData needs the Advanced Insights add-on.
    advancedInsights: true,
    ...(args.apiKey === undefined ? {} : { apiKey: args.apiKey }),
    ...(args.apiSecret === undefined ? {} : { apiSecret: args.apiSecret }),
  });
  const sessionId = seedDemo(emu, project.apiKey);
  const { key, secret } = emu.control.account;
  const line = {
    baseUrl: emu.baseUrl,
    insightsUrl: emu.insightsUrl,
    apiKey: project.apiKey,
    apiSecret: project.apiSecret,
    accountKey: key,
    accountSecret: secret,
    sessionId,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);

  const shutdown = (): void => {
    emu.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
