/**
 * For operators on the vidops host: prints a project secret vidops stored (after `/video-admin
 * create` or `rotate-secret`), so it can be put into the projects file or another app's
 * configuration. Reads DATABASE_URL and VIDOPS_SECRET_KEY like vidops does.
 *
 *   npx tsx src/secrets/cli.ts project:<api-key>                 the secret, alone on a line
 *   npx tsx src/secrets/cli.ts project:<api-key> --entry <name>  a projects-file entry with it
 *
 * Exit codes: 0 printed; 1 not stored or cannot be opened; 2 wrong usage or configuration.
 */
import { type Env, formatConfigProblems, loadConfig } from '../config';
import { SecretBox, SecretBoxError } from '../crypto';
import { createStore } from '../store';
import { apiKeyOfSecretName, openProjectSecret } from './project-secrets';

export const USAGE = 'Usage: npx tsx src/secrets/cli.ts project:<api-key> [--entry <project-name>]';

export interface CliOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

export interface ParsedArgs {
  name: string;
  apiKey: string;
  entry?: string;
}

export function parseArgs(argv: readonly string[]): ParsedArgs | string {
  let name: string | undefined;
  let entry: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--entry' || arg.startsWith('--entry=')) {
      const value = arg === '--entry' ? argv[++i] : arg.slice('--entry='.length);
      if (!value) return '--entry needs the name vidops should know the project by, e.g. --entry support';
      entry = value;
    } else if (arg.startsWith('-')) {
      return `unknown option ${arg}`;
    } else if (name === undefined) {
      name = arg;
    } else {
      return `unexpected argument ${arg}`;
    }
  }
  if (name === undefined) return 'name the secret to print, e.g. project:46123456';
  const apiKey = apiKeyOfSecretName(name);
  if (apiKey === undefined) return `${name} is not a project secret name; they look like project:<api-key>`;
  return { name, apiKey, ...(entry !== undefined ? { entry } : {}) };
}

export async function run(argv: readonly string[], env: Env, out: CliOutput): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    out.stderr(`${args}\n${USAGE}\n`);
    return 2;
  }
  const loaded = loadConfig(env, { requireSlack: false, requireVideo: false });
  if (!loaded.ok) {
    out.stderr(`${formatConfigProblems(loaded.problems)}\n`);
    return 2;
  }
  const { secretKey, databaseUrl } = loaded.config;
  if (!secretKey) {
    out.stderr('VIDOPS_SECRET_KEY is not set: stored secrets are sealed with it; set it to the key vidops runs with.\n');
    return 2;
  }
  const store = createStore(databaseUrl);
  try {
    await store.migrate();
    const stored = await store.getSecret(args.name);
    if (!stored) {
      out.stderr(`No secret is stored as ${args.name} (in ${databaseUrl ?? 'the default SQLite file'}).\n`);
      return 1;
    }
    let secret: string;
    try {
      secret = openProjectSecret(new SecretBox(secretKey), args.apiKey, stored.ciphertext).secret;
    } catch (error) {
      out.stderr(`${args.name} cannot be opened: ${error instanceof SecretBoxError ? error.message : 'unknown error'}.\n`);
      return 1;
    }
    const line = args.entry === undefined ? secret : JSON.stringify({ name: args.entry, apiKey: args.apiKey, apiSecret: secret, channels: [] });
    out.stdout(`${line}\n`);
    out.stderr(`Stored ${new Date(stored.updatedAt).toISOString()}. Keep it out of chat, tickets and logs.\n`);
    return 0;
  } finally {
    await store.close();
  }
}

if (require.main === module) {
  run(process.argv.slice(2), process.env, {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  }).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
