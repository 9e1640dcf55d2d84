export interface CliArgs {
  port: number;
  host?: string;
  apiKey?: string;
  apiSecret?: string;
  accountKey?: string;
  accountSecret?: string;
}

export const USAGE = 'Usage: npm run emulator -- [--port N] [--host H] [--api-key K] [--api-secret S] [--account-key K] [--account-secret S]';

const FLAGS: Record<string, Exclude<keyof CliArgs, 'port'> | 'port'> = {
  '--port': 'port',
  '--host': 'host',
  '--api-key': 'apiKey',
  '--api-secret': 'apiSecret',
  '--account-key': 'accountKey',
  '--account-secret': 'accountSecret',
};

/** Parses `--flag value` and `--flag=value`; throws with a readable message on anything else. */
export function parseCliArgs(argv: readonly string[]): CliArgs {
  const args: CliArgs = { port: 0 };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    const eq = arg.indexOf('=');
    const flag = eq >= 0 ? arg.slice(0, eq) : arg;
    const name = FLAGS[flag];
    if (name === undefined) throw new Error(`Unknown argument '${arg}'\n${USAGE}`);
    const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === '') throw new Error(`${flag} needs a value\n${USAGE}`);
    if (name === 'port') {
      const port = Number(value);
      if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`--port must be 0-65535, got '${value}'`);
      args.port = port;
    } else {
      args[name] = value;
    }
  }
  return args;
}
