/**
 * Configuration from the environment, validated once at start-up. Every problem is reported at
 * once, naming the variable and what a right value looks like. Values are never echoed, so a
 * secret pasted into the wrong variable cannot leak into a terminal or a log.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parseSecretKey } from './crypto';
import { LOG_LEVELS } from './log';
import { parseDatabaseUrl } from './store/url';

// What a valid configuration is made of.

const botToken = z.string().regex(/^xoxb-[A-Za-z0-9-]+$/, 'a bot token starts with "xoxb-"');
const appToken = z.string().regex(/^xapp-[A-Za-z0-9-]+$/, 'an app-level token starts with "xapp-"');
const opaqueSecret = z.string().regex(/^\S+$/, 'it must not contain spaces');
const credential = z.string().regex(/^\S+$/, 'it must be a non-empty string without spaces');
const httpUrl = z.url({ protocol: /^https?$/, error: 'it must be an http:// or https:// URL' });
const port = z.number().int().min(0, 'it must be from 0 to 65535').max(65535, 'it must be from 0 to 65535');
const projectName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'use up to 64 letters, digits, ".", "_" or "-", starting with a letter or digit');
const channelId = z.string().regex(/^[CG][A-Z0-9]{2,}$/, 'a channel ID looks like C0123456789');
const userId = z.string().regex(/^[UW][A-Z0-9]+$/, 'a user ID looks like U0123ABCD');

export const projectSchema = z.object({
  name: projectName,
  apiKey: credential,
  apiSecret: credential,
  /** Channels whose commands use this project unless told otherwise. */
  channels: z.array(channelId).default([]),
});
export type ProjectConfig = z.infer<typeof projectSchema>;

export const slackConfigSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('http'), botToken, signingSecret: opaqueSecret, apiUrl: httpUrl.optional() }),
  z.object({
    mode: z.literal('socket'),
    botToken,
    appToken,
    signingSecret: opaqueSecret.optional(),
    apiUrl: httpUrl.optional(),
  }),
]);
export type SlackConfig = z.infer<typeof slackConfigSchema>;

export const videoConfigSchema = z.object({
  /** REST base URL, without a trailing slash. */
  apiUrl: httpUrl,
  /** Insights (GraphQL) base URL, without a trailing slash. */
  insightsUrl: httpUrl.optional(),
  /** Account-level credentials for project administration. */
  account: z.object({ apiKey: credential, apiSecret: credential }).optional(),
  projects: z.array(projectSchema).min(1),
  /** The project used when neither the command nor the channel names one. */
  defaultProject: projectName,
});
export type VideoConfig = z.infer<typeof videoConfigSchema>;

export const configSchema = z.object({
  /** Absent only when loaded with `requireSlack: false` and no Slack variable is set. */
  slack: slackConfigSchema.optional(),
  port,
  /** Absent only when loaded with `requireVideo: false` and no video variable is set. */
  video: videoConfigSchema.optional(),
  /** The access policy document, parsed as JSON but not yet validated (that is the RBAC module's job). */
  policy: z.object({ path: z.string(), document: z.unknown() }).optional(),
  auditChannel: channelId.optional(),
  admins: z.array(userId),
  databaseUrl: z.string().optional(),
  secretKey: z.instanceof(Buffer).optional(),
  /** How long a command or button may wait on the video service before it says what is known. */
  videoBoundMs: z.number().int().positive(),
  logLevel: z.enum(LOG_LEVELS),
});
export type Config = z.infer<typeof configSchema>;

// How each environment variable is read.

interface Variable<T> {
  schema: z.ZodType<T, string>;
  /** What a right value looks like, completing "set it to …". */
  hint: string;
}

function variable<T>(schema: z.ZodType<T, string>, hint: string): Variable<T> {
  return { schema, hint };
}

const withTrailingSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`);
const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '');
const splitList = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

const PROJECTS_FILE_EXAMPLE = '{"projects":[{"name":"prod","apiKey":"…","apiSecret":"…","channels":["C0123456789"]}],"default":"prod"}';

const variables = {
  SLACK_BOT_TOKEN: variable(botToken, "the Bot User OAuth Token (xoxb-…) from your Slack app's OAuth & Permissions page"),
  SLACK_SIGNING_SECRET: variable(opaqueSecret, "the Signing Secret from your Slack app's Basic Information page"),
  SLACK_APP_TOKEN: variable(
    appToken,
    "an app-level token (xapp-…) with the connections:write scope, from your Slack app's Basic Information page, to use Socket Mode",
  ),
  PORT: variable(
    z.string().regex(/^\d+$/, 'it must be a whole number').transform(Number).pipe(port),
    'the port for HTTP requests from Slack, a whole number from 0 to 65535 (default 3000)',
  ),
  SLACK_API_URL: variable(
    httpUrl.transform(withTrailingSlash),
    'the base URL of the Slack Web API, such as https://slack.com/api/ (leave it unset to use Slack itself)',
  ),
  VIDEO_API_URL: variable(httpUrl.transform(withoutTrailingSlash), 'the base URL of the Video Session Service REST API, such as https://video.example.com'),
  VIDEO_INSIGHTS_URL: variable(
    httpUrl.transform(withoutTrailingSlash),
    'the base URL of the Video Session Service Insights API, such as https://insights.video.example.com',
  ),
  VIDEO_API_KEY: variable(credential, "your project's API key from the Video Session Service"),
  VIDEO_API_SECRET: variable(credential, 'the API secret of the project named by VIDEO_API_KEY'),
  VIDEO_ACCOUNT_API_KEY: variable(credential, 'your account-level API key, used for project administration'),
  VIDEO_ACCOUNT_API_SECRET: variable(credential, 'the account-level API secret that goes with VIDEO_ACCOUNT_API_KEY'),
  VIDOPS_PROJECTS_FILE: variable(z.string(), `the path of a readable JSON file like ${PROJECTS_FILE_EXAMPLE}`),
  VIDOPS_POLICY_FILE: variable(z.string(), 'the path of a readable JSON file holding the access policy'),
  VIDOPS_VIDEO_BOUND_SECONDS: variable(
    z
      .string()
      .regex(/^\d+$/, 'it must be a whole number')
      .transform(Number)
      .pipe(z.number().int().min(5, 'it must be at least 5').max(600, 'it must be at most 600')),
    'how many seconds a command may wait on the video service before it says what is known, a whole number from 5 to 600 (default 20)',
  ),
  VIDOPS_AUDIT_CHANNEL: variable(channelId, 'a Slack channel ID such as C0123456789 (channel details → About)'),
  VIDOPS_ADMINS: variable(
    z.string().transform(splitList).pipe(z.array(userId)),
    'comma-separated Slack user IDs such as U0123ABCD,W0456EFGH (profile → ⋮ → Copy member ID)',
  ),
  DATABASE_URL: variable(
    z.string().refine((url) => parseDatabaseUrl(url) !== undefined, 'it must start with postgres://, postgresql:// or sqlite:'),
    'postgres://user:password@host:5432/database, or sqlite:<path> (default sqlite:./data/vidops.sqlite)',
  ),
  VIDOPS_SECRET_KEY: variable(
    z.string().transform((text, ctx) => {
      const key = parseSecretKey(text);
      if (key) return key;
      ctx.addIssue({ code: 'custom', message: 'it must be exactly 32 bytes' });
      return z.NEVER;
    }),
    '32 random bytes written as 64 hex characters or as base64, e.g. the output of `openssl rand -hex 32`',
  ),
  LOG_LEVEL: variable(
    z
      .string()
      .transform((level) => level.toLowerCase())
      .pipe(z.enum(LOG_LEVELS, { error: `it must be one of ${LOG_LEVELS.join(', ')}` })),
    `one of ${LOG_LEVELS.join(', ')} (default info)`,
  ),
};

type VariableName = keyof typeof variables;
type Values = { [Name in VariableName]?: z.output<(typeof variables)[Name]['schema']> };

export type Env = Record<string, string | undefined>;

export interface LoadConfigOptions {
  /** Default true. When false and no Slack variable is set, `config.slack` is absent. */
  requireSlack?: boolean;
  /** Default true. When false and no video variable is set, `config.video` is absent. */
  requireVideo?: boolean;
}

export type ConfigResult = { ok: true; config: Config } | { ok: false; problems: string[] };

/** Reads and validates the whole configuration. Never throws; collects every problem. */
export function loadConfig(env: Env = process.env, options: LoadConfigOptions = {}): ConfigResult {
  const reader = new EnvReader(env);
  const slack = readSlack(reader, options.requireSlack ?? true);
  const video = readVideo(reader, options.requireVideo ?? true);
  const policyPath = reader.value('VIDOPS_POLICY_FILE');
  const policyDocument = policyPath === undefined ? undefined : readJsonFile('VIDOPS_POLICY_FILE', policyPath, reader.problems);

  if (reader.problems.length > 0) return { ok: false, problems: reader.problems };
  return {
    ok: true,
    config: {
      slack,
      port: reader.value('PORT') ?? 3000,
      video,
      policy: policyPath === undefined ? undefined : { path: policyPath, document: policyDocument },
      auditChannel: reader.value('VIDOPS_AUDIT_CHANNEL'),
      admins: reader.value('VIDOPS_ADMINS') ?? [],
      databaseUrl: reader.value('DATABASE_URL'),
      secretKey: reader.value('VIDOPS_SECRET_KEY'),
      videoBoundMs: (reader.value('VIDOPS_VIDEO_BOUND_SECONDS') ?? 20) * 1000,
      logLevel: reader.value('LOG_LEVEL') ?? 'info',
    },
  };
}

/** The message printed before exiting with code 2. */
export function formatConfigProblems(problems: readonly string[]): string {
  const count = problems.length === 1 ? 'a problem' : `${problems.length} problems`;
  return [
    `vidops cannot start: its configuration has ${count}.`,
    ...problems.map((problem) => `  - ${problem}`),
    'Fix the environment variables (or the files they name) and start again.',
  ].join('\n');
}

/** Whether Slack can be reached: a bot token plus a signing secret (HTTP) or an app token (Socket Mode). */
export function hasSlackCredentials(env: Env = process.env): boolean {
  const set = (name: VariableName) => (env[name]?.trim() ?? '') !== '';
  return set('SLACK_BOT_TOKEN') && (set('SLACK_SIGNING_SECRET') || set('SLACK_APP_TOKEN'));
}

/** Parses each variable once, remembering which were set and recording their problems. */
class EnvReader {
  readonly problems: string[] = [];
  private readonly values: Values = {};
  private readonly present = new Set<VariableName>();

  constructor(env: Env) {
    for (const name of Object.keys(variables) as VariableName[]) {
      // An empty value (`FOO=` in an env file) counts as unset; stray whitespace from pasting is dropped.
      const raw = env[name]?.trim();
      if (raw === undefined || raw === '') continue;
      this.present.add(name);
      const parsed = variables[name].schema.safeParse(raw);
      if (parsed.success) (this.values as Record<string, unknown>)[name] = parsed.data;
      else this.problems.push(invalid(name, describeIssues(parsed.error)));
    }
  }

  value<Name extends VariableName>(name: Name): Values[Name] {
    return this.values[name];
  }

  isSet(...names: VariableName[]): boolean {
    return names.some((name) => this.present.has(name));
  }

  requireSet(name: VariableName, alternative = ''): void {
    if (!this.present.has(name)) this.problems.push(`${missing(name)}${alternative}`);
  }
}

function missing(name: VariableName): string {
  return `${name} is missing: set it to ${variables[name].hint}`;
}

function invalid(name: VariableName, reason: string): string {
  return `${name} is invalid: ${reason}. Set it to ${variables[name].hint}`;
}

function describeIssues(error: z.ZodError): string {
  const reasons = error.issues.map((issue) => {
    const index = issue.path.find((key) => typeof key === 'number');
    return index === undefined ? issue.message : `entry ${index + 1}: ${issue.message}`;
  });
  return [...new Set(reasons)].join('; ');
}

function readSlack(reader: EnvReader, required: boolean): SlackConfig | undefined {
  if (!required && !reader.isSet('SLACK_BOT_TOKEN', 'SLACK_SIGNING_SECRET', 'SLACK_APP_TOKEN', 'SLACK_API_URL')) {
    return undefined;
  }
  reader.requireSet('SLACK_BOT_TOKEN');
  if (!reader.isSet('SLACK_APP_TOKEN')) {
    reader.requireSet('SLACK_SIGNING_SECRET', ' (or set SLACK_APP_TOKEN to use Socket Mode)');
  }
  const botToken = reader.value('SLACK_BOT_TOKEN');
  const signingSecret = reader.value('SLACK_SIGNING_SECRET');
  const appToken = reader.value('SLACK_APP_TOKEN');
  const apiUrl = reader.value('SLACK_API_URL');
  if (botToken === undefined) return undefined;
  if (appToken !== undefined) return { mode: 'socket', botToken, appToken, signingSecret, apiUrl };
  if (signingSecret !== undefined) return { mode: 'http', botToken, signingSecret, apiUrl };
  return undefined;
}

const VIDEO_VARIABLES: VariableName[] = [
  'VIDEO_API_URL',
  'VIDEO_INSIGHTS_URL',
  'VIDEO_API_KEY',
  'VIDEO_API_SECRET',
  'VIDEO_ACCOUNT_API_KEY',
  'VIDEO_ACCOUNT_API_SECRET',
  'VIDOPS_PROJECTS_FILE',
];

/** The env pair that names the `default` project when there is no projects file (or adds to it). */
const ENV_PROJECT_NAME = 'default';

function readVideo(reader: EnvReader, required: boolean): VideoConfig | undefined {
  if (!required && !reader.isSet(...VIDEO_VARIABLES)) return undefined;

  const projectsPath = reader.value('VIDOPS_PROJECTS_FILE');
  const file = projectsPath === undefined ? undefined : readProjectsFile(projectsPath, reader.problems);
  const envProject = readPair(reader, 'VIDEO_API_KEY', 'VIDEO_API_SECRET');
  const account = readPair(reader, 'VIDEO_ACCOUNT_API_KEY', 'VIDEO_ACCOUNT_API_SECRET');

  const projects = [...(file?.projects ?? [])];
  if (envProject) {
    if (projects.some((project) => sameName(project.name, ENV_PROJECT_NAME))) {
      reader.problems.push(
        `VIDEO_API_KEY and VIDEO_API_SECRET clash with the project named "${ENV_PROJECT_NAME}" in VIDOPS_PROJECTS_FILE (${projectsPath}): ` +
          `they define a project of that name too. Remove them and keep the file, or rename the file's project`,
      );
    } else {
      projects.push({ name: ENV_PROJECT_NAME, ...envProject, channels: [] });
    }
  }

  if (!reader.isSet('VIDOPS_PROJECTS_FILE', 'VIDEO_API_KEY', 'VIDEO_API_SECRET')) {
    reader.requireSet('VIDEO_API_KEY', ' (or list your projects in VIDOPS_PROJECTS_FILE)');
    reader.requireSet('VIDEO_API_SECRET', ' (or list your projects in VIDOPS_PROJECTS_FILE)');
  }
  reader.requireSet('VIDEO_API_URL');

  const apiUrl = reader.value('VIDEO_API_URL');
  const defaultProject = file?.default ?? implicitDefault(projects);
  if (defaultProject === undefined && projects.length > 1) {
    reader.problems.push(
      `VIDOPS_PROJECTS_FILE (${projectsPath}): default is missing: set it to the name of the project ` +
        'that commands use when neither the command nor the channel names one',
    );
  }
  if (apiUrl === undefined || defaultProject === undefined || projects.length === 0) return undefined;
  return {
    apiUrl,
    insightsUrl: reader.value('VIDEO_INSIGHTS_URL'),
    account,
    projects,
    defaultProject,
  };
}

/** Key and secret come together; one without the other is a problem. */
function readPair(
  reader: EnvReader,
  keyName: 'VIDEO_API_KEY' | 'VIDEO_ACCOUNT_API_KEY',
  secretName: 'VIDEO_API_SECRET' | 'VIDEO_ACCOUNT_API_SECRET',
): { apiKey: string; apiSecret: string } | undefined {
  if (!reader.isSet(keyName, secretName)) return undefined;
  reader.requireSet(keyName);
  reader.requireSet(secretName);
  const apiKey = reader.value(keyName);
  const apiSecret = reader.value(secretName);
  return apiKey !== undefined && apiSecret !== undefined ? { apiKey, apiSecret } : undefined;
}

function implicitDefault(projects: readonly ProjectConfig[]): string | undefined {
  if (projects.length === 1) return projects[0]?.name;
  return projects.find((project) => project.name === ENV_PROJECT_NAME)?.name;
}

function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

// The projects file.

const projectsFileSchema = z.strictObject({
  projects: z.array(z.strictObject(projectSchema.shape)).min(1, 'list at least one project'),
  default: projectName.optional(),
});

interface FileIssue {
  path: readonly PropertyKey[];
  message: string;
}

/**
 * Rules across projects: unique names, one project per channel, a default that exists.
 * Checked on the raw document so they are reported together with any field-level problem.
 */
function crossProjectIssues(document: unknown): FileIssue[] {
  const file = isRecord(document) ? document : {};
  const projects = Array.isArray(file.projects) ? file.projects : [];
  const issues: FileIssue[] = [];
  const nameIndex = new Map<string, number>();
  const channelOwner = new Map<string, string>();
  projects.forEach((project: unknown, index) => {
    if (!isRecord(project) || typeof project.name !== 'string') return;
    const earlier = nameIndex.get(project.name.toLowerCase());
    if (earlier !== undefined) {
      issues.push({ path: ['projects', index, 'name'], message: `it repeats the name of projects[${earlier}]` });
    }
    nameIndex.set(project.name.toLowerCase(), index);
    const channels: unknown[] = Array.isArray(project.channels) ? project.channels : [];
    channels.forEach((channel, channelIndex) => {
      if (typeof channel !== 'string') return;
      const owner = channelOwner.get(channel);
      if (owner !== undefined && owner !== project.name) {
        issues.push({
          path: ['projects', index, 'channels', channelIndex],
          message: `the channel already belongs to project "${owner}"; a channel has one project`,
        });
      }
      channelOwner.set(channel, project.name as string);
    });
  });
  if (typeof file.default === 'string' && !projects.some((project: unknown) => isRecord(project) && project.name === file.default)) {
    issues.push({ path: ['default'], message: 'no project has that name' });
  }
  return issues;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type ProjectsFile = z.infer<typeof projectsFileSchema>;

const PROJECTS_FILE_FIELDS: Record<string, string> = {
  projects: `a list of projects like ${PROJECTS_FILE_EXAMPLE}`,
  name: 'a short project name such as "prod"',
  apiKey: "the project's API key",
  apiSecret: "the project's API secret",
  channels: 'a list of Slack channel IDs such as ["C0123456789"]',
  default: 'the name of one of the projects',
};

function readProjectsFile(path: string, problems: string[]): ProjectsFile | undefined {
  const document = readJsonFile('VIDOPS_PROJECTS_FILE', path, problems);
  if (document === undefined) return undefined;
  const parsed = projectsFileSchema.safeParse(document);
  const descriptions = [
    ...(parsed.success ? [] : parsed.error.issues.map((issue) => describeFileIssue(issue, document))),
    ...crossProjectIssues(document).map((issue) => describeFileIssue(issue, document)),
  ];
  problems.push(...descriptions.map((description) => `VIDOPS_PROJECTS_FILE (${path}): ${description}`));
  return parsed.success && descriptions.length === 0 ? parsed.data : undefined;
}

function describeFileIssue(issue: z.core.$ZodIssue | FileIssue, document: unknown): string {
  const where = formatJsonPath(issue.path) || 'the file';
  if ('code' in issue && issue.code === 'unrecognized_keys') {
    return `${where} has unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
  }
  const field = issue.path.at(-1);
  const hint = typeof field === 'string' ? PROJECTS_FILE_FIELDS[field] : undefined;
  const advice = hint === undefined ? '' : `: set it to ${hint}`;
  if ('code' in issue && issue.code === 'invalid_type' && valueAt(document, issue.path) === undefined) {
    return `${where} is missing${advice}`;
  }
  // Zod's own type messages ("expected string, received number") name types, never values.
  return `${where} is invalid: ${issue.message}${advice && `. Set it to ${hint}`}`;
}

function formatJsonPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), '');
}

function valueAt(document: unknown, path: readonly PropertyKey[]): unknown {
  let value = document;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** Reads and parses a JSON file; on failure records a problem that never quotes the content. */
function readJsonFile(name: VariableName, path: string, problems: string[]): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    problems.push(`${name} (${path}) ${describeReadError(error)}: set it to ${variables[name].hint}`);
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    // JSON.parse messages can quote the text around the error, which may be a secret.
    const position = /position (\d+)/.exec((error as Error).message)?.[1];
    const where = position === undefined ? '' : ` at ${lineAndColumn(text, Number(position))}`;
    problems.push(`${name} (${path}) is not valid JSON${where}: set it to ${variables[name].hint}`);
    return undefined;
  }
}

function describeReadError(error: unknown): string {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'ENOENT':
      return 'does not exist';
    case 'EACCES':
    case 'EPERM':
      return 'cannot be read (permission denied)';
    case 'EISDIR':
      return 'is a directory, not a file';
    default:
      return 'cannot be read';
  }
}

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}
