import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator';
import { projectToken, type Claims } from './helpers';

export const MINUTE = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;

export interface GraphQLResult {
  status: number;
  json: any;
  headers: Headers;
}

export interface QueryOptions {
  variables?: Record<string, unknown>;
  /** Raw header value; null sends none; default: a fresh project token. */
  token?: string | null;
  claims?: Claims;
  /** Raw body instead of `{query, variables}`. */
  body?: string;
  headers?: Record<string, string>;
  method?: string;
}

export interface ProjectCreds {
  apiKey: string;
  apiSecret: string;
}

/** A running emulator plus a project, and raw GraphQL calls to `{insightsUrl}/graphql` signed for it. */
export class InsightsHarness {
  private constructor(
    readonly emu: RunningEmulator,
    readonly apiKey: string,
    readonly apiSecret: string,
  ) {}

  static async start(options: EmulatorOptions & { advancedInsights?: boolean; syntheticHistory?: boolean; apiKey?: string } = {}): Promise<InsightsHarness> {
    const { advancedInsights, syntheticHistory, apiKey, ...emulatorOptions } = options;
    const emu = await startEmulator(emulatorOptions);
    const project = emu.control.createProject({
      name: 'Insights test',
      advancedInsights: advancedInsights ?? true,
      syntheticHistory: syntheticHistory ?? false,
      ...(apiKey === undefined ? {} : { apiKey }),
    });
    return new InsightsHarness(emu, project.apiKey, project.apiSecret);
  }

  get control() {
    return this.emu.control;
  }

  /** Moves the emulator clock to `at` (epoch ms, not in the past). */
  advanceTo(at: number): void {
    const now = this.control.now();
    if (at < now) throw new Error(`advanceTo(${new Date(at).toISOString()}) is in the past`);
    this.control.advanceTime(at - now);
  }

  async query(query: string, opts: QueryOptions = {}, creds: ProjectCreds = this): Promise<GraphQLResult> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', ...opts.headers };
    const token = opts.token === undefined ? await projectToken(creds.apiKey, creds.apiSecret, opts.claims) : opts.token;
    if (token !== null) headers['X-SERVICE-AUTH'] = token;
    const method = opts.method ?? 'POST';
    const body = opts.body ?? JSON.stringify(opts.variables ? { query, variables: opts.variables } : { query });
    const res = await fetch(`${this.emu.insightsUrl}/graphql`, { method, headers, ...(method === 'GET' || method === 'HEAD' ? {} : { body }) });
    const text = await res.text();
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, json, headers: res.headers };
  }

  /** `{ project(projectId: "<key>") { <inner> } }` */
  project(inner: string, opts: QueryOptions = {}): Promise<GraphQLResult> {
    return this.query(`{ project(projectId: "${this.apiKey}") { ${inner} } }`, opts);
  }

  close(): Promise<void> {
    return this.emu.close();
  }
}

/** The error codes of an answer, in order. */
export const codes = (res: GraphQLResult): number[] => (res.json?.errors ?? []).map((e: { errorCode: number }) => e.errorCode);

// Copied from ../shared/reference/insights (README.md names the sources).
export const REFERENCE_DIR = join(__dirname, '..', 'reference', 'insights');

/** The reference queries (dashboard sample and blog), comment lines removed. */
export function referenceQueries(): Array<{ name: string; text: string }> {
  return readdirSync(REFERENCE_DIR)
    .filter((f) => f.endsWith('.graphql'))
    .sort()
    .map((name) => ({
      name,
      text: readFileSync(join(REFERENCE_DIR, name), 'utf8')
        .split('\n')
        .filter((line) => !line.startsWith('#'))
        .join('\n'),
    }));
}
