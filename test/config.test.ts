import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatConfigProblems, hasSlackCredentials, loadConfig, type Config, type Env } from '../src/config';

const BOT_TOKEN = 'xoxb-111-222-SeCrEtBoTtOkEn';
const SIGNING_SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
const APP_TOKEN = 'xapp-1-A111-222-SeCrEtApPtOkEn';
const API_SECRET = 'video-api-secret-DO-NOT-PRINT';
const SECRET_KEY_HEX = 'ab'.repeat(32);

/** A complete, valid HTTP-mode environment with one project from the env pair. */
const BASE: Env = {
  SLACK_BOT_TOKEN: BOT_TOKEN,
  SLACK_SIGNING_SECRET: SIGNING_SECRET,
  VIDEO_API_URL: 'https://video.example.com',
  VIDEO_API_KEY: '46000001',
  VIDEO_API_SECRET: API_SECRET,
};

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vidops-config-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

let fileCount = 0;
function file(content: unknown): string {
  const path = join(dir, `file-${(fileCount += 1)}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

function ok(env: Env, options?: Parameters<typeof loadConfig>[1]): Config {
  const result = loadConfig(env, options);
  if (!result.ok) throw new Error(`expected a valid configuration, got:\n${result.problems.join('\n')}`);
  return result.config;
}

function problems(env: Env, options?: Parameters<typeof loadConfig>[1]): string[] {
  const result = loadConfig(env, options);
  if (result.ok) throw new Error('expected configuration problems, got none');
  return result.problems;
}

function without(env: Env, ...names: string[]): Env {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !names.includes(name)));
}

describe('a valid environment', () => {
  it('gives defaults for everything optional', () => {
    expect(ok(BASE)).toEqual({
      slack: { mode: 'http', botToken: BOT_TOKEN, signingSecret: SIGNING_SECRET, apiUrl: undefined },
      port: 3000,
      video: {
        apiUrl: 'https://video.example.com',
        insightsUrl: undefined,
        account: undefined,
        projects: [{ name: 'default', apiKey: '46000001', apiSecret: API_SECRET, channels: [] }],
        defaultProject: 'default',
      },
      policy: undefined,
      auditChannel: undefined,
      admins: [],
      databaseUrl: undefined,
      secretKey: undefined,
      videoBoundMs: 20_000,
      logLevel: 'info',
    });
  });

  it('reads every variable', () => {
    const policy = file({ roles: { admin: { users: ['U1'] } } });
    const config = ok({
      ...BASE,
      SLACK_APP_TOKEN: APP_TOKEN,
      PORT: '8080',
      SLACK_API_URL: 'http://127.0.0.1:4000/api',
      VIDEO_API_URL: 'http://127.0.0.1:4010/',
      VIDEO_INSIGHTS_URL: 'http://127.0.0.1:4010/insights/',
      VIDEO_ACCOUNT_API_KEY: 'acct-key',
      VIDEO_ACCOUNT_API_SECRET: 'acct-secret',
      VIDOPS_POLICY_FILE: policy,
      VIDOPS_AUDIT_CHANNEL: 'C0AUDIT01',
      VIDOPS_ADMINS: ' U0ADMIN1, W0ADMIN2 ,',
      DATABASE_URL: 'postgres://vidops@db:5432/vidops',
      VIDOPS_SECRET_KEY: SECRET_KEY_HEX,
      VIDOPS_VIDEO_BOUND_SECONDS: '45',
      LOG_LEVEL: 'DEBUG',
    });
    expect(config).toMatchObject({
      slack: { mode: 'socket', botToken: BOT_TOKEN, appToken: APP_TOKEN, signingSecret: SIGNING_SECRET, apiUrl: 'http://127.0.0.1:4000/api/' },
      port: 8080,
      video: {
        apiUrl: 'http://127.0.0.1:4010',
        insightsUrl: 'http://127.0.0.1:4010/insights',
        account: { apiKey: 'acct-key', apiSecret: 'acct-secret' },
      },
      policy: { path: policy, document: { roles: { admin: { users: ['U1'] } } } },
      auditChannel: 'C0AUDIT01',
      admins: ['U0ADMIN1', 'W0ADMIN2'],
      databaseUrl: 'postgres://vidops@db:5432/vidops',
      secretKey: Buffer.from(SECRET_KEY_HEX, 'hex'),
      videoBoundMs: 45_000,
      logLevel: 'debug',
    });
  });

  it('uses Socket Mode without a signing secret when an app token is set', () => {
    expect(ok({ ...without(BASE, 'SLACK_SIGNING_SECRET'), SLACK_APP_TOKEN: APP_TOKEN }).slack).toEqual({
      mode: 'socket',
      botToken: BOT_TOKEN,
      appToken: APP_TOKEN,
      signingSecret: undefined,
      apiUrl: undefined,
    });
  });

  it('treats empty and blank values as unset and trims pasted whitespace', () => {
    const config = ok({ ...BASE, PORT: '', LOG_LEVEL: '  ', SLACK_BOT_TOKEN: ` ${BOT_TOKEN}\n` });
    expect(config.port).toBe(3000);
    expect(config.logLevel).toBe('info');
    expect(config.slack?.botToken).toBe(BOT_TOKEN);
  });

  it('accepts a base64 secret key', () => {
    const key = Buffer.alloc(32, 9);
    expect(ok({ ...BASE, VIDOPS_SECRET_KEY: key.toString('base64') }).secretKey).toEqual(key);
  });
});

describe('missing variables', () => {
  it.each([
    [
      'SLACK_BOT_TOKEN',
      without(BASE, 'SLACK_BOT_TOKEN'),
      "SLACK_BOT_TOKEN is missing: set it to the Bot User OAuth Token (xoxb-…) from your Slack app's OAuth & Permissions page",
    ],
    [
      'SLACK_SIGNING_SECRET',
      without(BASE, 'SLACK_SIGNING_SECRET'),
      "SLACK_SIGNING_SECRET is missing: set it to the Signing Secret from your Slack app's Basic Information page (or set SLACK_APP_TOKEN to use Socket Mode)",
    ],
    [
      'VIDEO_API_URL',
      without(BASE, 'VIDEO_API_URL'),
      'VIDEO_API_URL is missing: set it to the base URL of the Video Session Service REST API, such as https://video.example.com',
    ],
    [
      'VIDEO_API_KEY (secret alone)',
      without(BASE, 'VIDEO_API_KEY'),
      "VIDEO_API_KEY is missing: set it to your project's API key from the Video Session Service",
    ],
    [
      'VIDEO_API_SECRET (key alone)',
      without(BASE, 'VIDEO_API_SECRET'),
      'VIDEO_API_SECRET is missing: set it to the API secret of the project named by VIDEO_API_KEY',
    ],
    [
      'VIDEO_ACCOUNT_API_SECRET (key alone)',
      { ...BASE, VIDEO_ACCOUNT_API_KEY: 'acct' },
      'VIDEO_ACCOUNT_API_SECRET is missing: set it to the account-level API secret that goes with VIDEO_ACCOUNT_API_KEY',
    ],
    [
      'VIDEO_ACCOUNT_API_KEY (secret alone)',
      { ...BASE, VIDEO_ACCOUNT_API_SECRET: 'acct' },
      'VIDEO_ACCOUNT_API_KEY is missing: set it to your account-level API key, used for project administration',
    ],
  ])('%s', (_name, env, expected) => {
    expect(problems(env)).toEqual([expected]);
  });

  it('asks for a project (env pair or projects file) when there is none', () => {
    expect(problems(without(BASE, 'VIDEO_API_KEY', 'VIDEO_API_SECRET'))).toEqual([
      "VIDEO_API_KEY is missing: set it to your project's API key from the Video Session Service (or list your projects in VIDOPS_PROJECTS_FILE)",
      'VIDEO_API_SECRET is missing: set it to the API secret of the project named by VIDEO_API_KEY (or list your projects in VIDOPS_PROJECTS_FILE)',
    ]);
  });
});

describe('invalid variables', () => {
  it.each([
    ['SLACK_BOT_TOKEN', 'xoxp-user-token', 'a bot token starts with "xoxb-"'],
    ['SLACK_SIGNING_SECRET', 'two words', 'it must not contain spaces'],
    ['SLACK_APP_TOKEN', 'xoxb-not-an-app-token', 'an app-level token starts with "xapp-"'],
    ['PORT', 'http', 'it must be a whole number'],
    ['PORT', '70000', 'it must be from 0 to 65535'],
    ['SLACK_API_URL', 'slack.com/api', 'it must be an http:// or https:// URL'],
    ['VIDEO_API_URL', 'ftp://video.example.com', 'it must be an http:// or https:// URL'],
    ['VIDEO_INSIGHTS_URL', 'insights', 'it must be an http:// or https:// URL'],
    ['VIDEO_API_KEY', 'has space', 'it must be a non-empty string without spaces'],
    ['VIDEO_API_SECRET', 'has space', 'it must be a non-empty string without spaces'],
    ['VIDOPS_AUDIT_CHANNEL', '#ops', 'a channel ID looks like C0123456789'],
    ['VIDOPS_ADMINS', 'U0ADMIN1,@alice', 'entry 2: a user ID looks like U0123ABCD'],
    ['VIDOPS_ADMINS', 'u0lower', 'entry 1: a user ID looks like U0123ABCD'],
    ['DATABASE_URL', 'mysql://db/vidops', 'it must start with postgres://, postgresql:// or sqlite:'],
    ['VIDOPS_SECRET_KEY', 'ab'.repeat(16), 'it must be exactly 32 bytes'],
    ['VIDOPS_SECRET_KEY', 'correct horse battery staple', 'it must be exactly 32 bytes'],
    ['LOG_LEVEL', 'verbose', 'it must be one of trace, debug, info, warn, error'],
    ['VIDOPS_VIDEO_BOUND_SECONDS', '20s', 'it must be a whole number'],
    ['VIDOPS_VIDEO_BOUND_SECONDS', '2', 'it must be at least 5'],
    ['VIDOPS_VIDEO_BOUND_SECONDS', '3600', 'it must be at most 600'],
  ])('%s=%s', (name, value, reason) => {
    const found = problems({ ...BASE, [name]: value });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(new RegExp(`^${name} is invalid: `));
    expect(found[0]).toContain(reason);
    expect(found[0]).toContain('. Set it to ');
  });

  it.each([
    ['VIDOPS_PROJECTS_FILE', 'does not exist'],
    ['VIDOPS_POLICY_FILE', 'does not exist'],
  ])('%s naming a missing file', (name, reason) => {
    const path = join(dir, 'nope.json');
    expect(problems({ ...BASE, [name]: path })).toEqual([
      expect.stringMatching(new RegExp(`^${name} \\(${path}\\) ${reason}: set it to the path of a readable JSON file`)),
    ]);
  });

  it('reports a directory instead of a file', () => {
    expect(problems({ ...BASE, VIDOPS_POLICY_FILE: dir })[0]).toContain('is a directory, not a file');
  });

  const asRoot = process.getuid?.() === 0;
  (asRoot ? it.skip : it)('reports a file it may not read', () => {
    const path = file({});
    chmodSync(path, 0o000);
    expect(problems({ ...BASE, VIDOPS_POLICY_FILE: path })[0]).toContain('cannot be read (permission denied)');
  });

  it('reports invalid JSON with its position but never its content', () => {
    const path = file('{\n  "roles": {\n    "admin": "xoxb-leaked-token",\n  }\n}');
    const [problem] = problems({ ...BASE, VIDOPS_POLICY_FILE: path });
    expect(problem).toMatch(/^VIDOPS_POLICY_FILE \(.+\) is not valid JSON at line 4, column 3: set it to/);
    expect(problem).not.toContain('xoxb-leaked-token');
  });

  it('never quotes a file whose JSON error message would', () => {
    const path = file('{"apiSecret": hunter2}');
    const [problem] = problems({ ...BASE, VIDOPS_PROJECTS_FILE: path });
    expect(problem).toMatch(/is not valid JSON/);
    expect(problem).not.toContain('hunter2');
  });
});

describe('collecting problems', () => {
  it('reports every problem at once, in variable order', () => {
    const found = problems({
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      PORT: 'eighty',
      VIDEO_API_KEY: '46000001',
      LOG_LEVEL: 'loud',
      VIDOPS_ADMINS: 'alice',
    });
    expect(found.map((problem) => problem.split(' ')[0])).toEqual([
      'PORT',
      'VIDOPS_ADMINS',
      'LOG_LEVEL',
      'SLACK_BOT_TOKEN',
      'VIDEO_API_SECRET',
      'VIDEO_API_URL',
    ]);
  });

  it('never echoes a value, so secrets in the wrong place stay hidden', () => {
    const leaks = ['xoxb-LEAK-1', 'xapp-LEAK-2', 'LEAK-3 with space', 'LEAK4://x', 'xoxe-LEAK-5'];
    const env: Env = {
      SLACK_BOT_TOKEN: leaks[1],
      SLACK_SIGNING_SECRET: leaks[2],
      SLACK_APP_TOKEN: leaks[0],
      PORT: leaks[3],
      SLACK_API_URL: leaks[0],
      VIDEO_API_URL: leaks[4],
      VIDEO_INSIGHTS_URL: leaks[4],
      VIDEO_API_KEY: leaks[2],
      VIDEO_API_SECRET: leaks[2],
      VIDEO_ACCOUNT_API_KEY: leaks[2],
      VIDEO_ACCOUNT_API_SECRET: leaks[2],
      VIDOPS_AUDIT_CHANNEL: leaks[0],
      VIDOPS_ADMINS: leaks[1],
      DATABASE_URL: `mysql://root:${leaks[4]}@db`,
      VIDOPS_SECRET_KEY: leaks[2],
      LOG_LEVEL: leaks[3],
    };
    const found = problems(env);
    expect(found.length).toBeGreaterThanOrEqual(Object.keys(env).length);
    for (const leak of leaks) expect(found.join('\n')).not.toContain(leak);
    for (const leak of leaks) expect(formatConfigProblems(found)).not.toContain(leak);
  });

  it('never throws, whatever the input', () => {
    expect(() => loadConfig({ PORT: '\u0000', VIDOPS_PROJECTS_FILE: '\u0000' })).not.toThrow();
  });
});

describe('projects', () => {
  const prod = { name: 'prod', apiKey: '46000002', apiSecret: 'prod-secret', channels: ['C0PROD001'] };
  const staging = { name: 'staging', apiKey: '46000003', apiSecret: 'staging-secret' };
  const withoutPair = without(BASE, 'VIDEO_API_KEY', 'VIDEO_API_SECRET');

  it('reads the projects file and its default', () => {
    const video = ok({ ...withoutPair, VIDOPS_PROJECTS_FILE: file({ projects: [prod, staging], default: 'staging' }) }).video;
    expect(video?.projects).toEqual([prod, { ...staging, channels: [] }]);
    expect(video?.defaultProject).toBe('staging');
  });

  it('makes a single project the default', () => {
    expect(ok({ ...withoutPair, VIDOPS_PROJECTS_FILE: file({ projects: [prod] }) }).video?.defaultProject).toBe('prod');
  });

  it('adds the env pair as project "default", which becomes the default unless the file names one', () => {
    const video = ok({ ...BASE, VIDOPS_PROJECTS_FILE: file({ projects: [prod] }) }).video;
    expect(video?.projects.map((project) => project.name)).toEqual(['prod', 'default']);
    expect(video?.defaultProject).toBe('default');
    const named = ok({ ...BASE, VIDOPS_PROJECTS_FILE: file({ projects: [prod], default: 'prod' }) }).video;
    expect(named?.defaultProject).toBe('prod');
  });

  it('refuses an env pair that clashes with a file project named "default"', () => {
    const path = file({ projects: [{ ...prod, name: 'Default' }] });
    expect(problems({ ...BASE, VIDOPS_PROJECTS_FILE: path })).toEqual([
      expect.stringMatching(/^VIDEO_API_KEY and VIDEO_API_SECRET clash with the project named "default" in VIDOPS_PROJECTS_FILE/),
    ]);
  });

  it('needs a default when there are several projects', () => {
    const path = file({ projects: [prod, staging] });
    expect(problems({ ...withoutPair, VIDOPS_PROJECTS_FILE: path })).toEqual([
      `VIDOPS_PROJECTS_FILE (${path}): default is missing: set it to the name of the project that commands use when neither the command nor the channel names one`,
    ]);
  });

  it('names the JSON path of every problem in the file, without quoting secrets', () => {
    const path = file({
      projects: [
        { name: 'prod', apiKey: '46000002', apiSecet: 'typo-secret', channels: ['C0PROD001', '#general'] },
        { name: 'Prod', apiKey: 46000003, apiSecret: 'other-secret', channels: ['C0PROD001'] },
        { name: 'bad name!', apiKey: 'k', apiSecret: 's' },
      ],
      default: 'live',
    });
    const found = problems({ ...withoutPair, VIDOPS_PROJECTS_FILE: path });
    const prefix = `VIDOPS_PROJECTS_FILE (${path}): `;
    expect(found).toEqual(
      expect.arrayContaining([
        `${prefix}projects[0].apiSecret is missing: set it to the project's API secret`,
        `${prefix}projects[0].channels[1] is invalid: a channel ID looks like C0123456789`,
        `${prefix}projects[0] has unknown field "apiSecet"`,
        `${prefix}projects[1].apiKey is invalid: Invalid input: expected string, received number. Set it to the project's API key`,
        expect.stringMatching(/^VIDOPS_PROJECTS_FILE .*: projects\[2\]\.name is invalid: use up to 64 letters/),
        `${prefix}projects[1].name is invalid: it repeats the name of projects[0]. Set it to a short project name such as "prod"`,
        `${prefix}projects[1].channels[0] is invalid: the channel already belongs to project "prod"; a channel has one project`,
        `${prefix}default is invalid: no project has that name. Set it to the name of one of the projects`,
      ]),
    );
    expect(found).toHaveLength(8);
    expect(found.join('\n')).not.toMatch(/typo-secret|other-secret/);
  });

  it.each([
    ['an empty list', { projects: [] }, 'projects is invalid: list at least one project'],
    ['no list', { default: 'prod' }, 'projects is missing: set it to a list of projects like'],
    ['not an object', [1, 2], 'the file is invalid: Invalid input: expected object, received array'],
  ])('rejects %s', (_name, content, expected) => {
    const [problem] = problems({ ...withoutPair, VIDOPS_PROJECTS_FILE: file(content) });
    expect(problem).toContain(expected);
  });
});

describe('optional Slack and video (local mode)', () => {
  it('leaves slack and video out when neither is required nor set', () => {
    const config = ok({}, { requireSlack: false, requireVideo: false });
    expect(config.slack).toBeUndefined();
    expect(config.video).toBeUndefined();
  });

  it('still reports half-set Slack or video variables', () => {
    expect(problems({ SLACK_APP_TOKEN: APP_TOKEN, VIDEO_API_KEY: 'k' }, { requireSlack: false, requireVideo: false })).toEqual([
      expect.stringMatching(/^SLACK_BOT_TOKEN is missing/),
      expect.stringMatching(/^VIDEO_API_SECRET is missing/),
      expect.stringMatching(/^VIDEO_API_URL is missing/),
    ]);
  });
});

describe('hasSlackCredentials', () => {
  it.each([
    [{ SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_SIGNING_SECRET: SIGNING_SECRET }, true],
    [{ SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_APP_TOKEN: APP_TOKEN }, true],
    [{ SLACK_BOT_TOKEN: BOT_TOKEN }, false],
    [{ SLACK_SIGNING_SECRET: SIGNING_SECRET, SLACK_APP_TOKEN: APP_TOKEN }, false],
    [{ SLACK_BOT_TOKEN: ' ', SLACK_SIGNING_SECRET: SIGNING_SECRET }, false],
    [{}, false],
  ])('%j → %s', (env, expected) => {
    expect(hasSlackCredentials(env)).toBe(expected);
  });
});

describe('formatConfigProblems', () => {
  it('lists the problems under one heading', () => {
    expect(formatConfigProblems(['A is missing: set it to a', 'B is invalid: b'])).toBe(
      [
        'vidops cannot start: its configuration has 2 problems.',
        '  - A is missing: set it to a',
        '  - B is invalid: b',
        'Fix the environment variables (or the files they name) and start again.',
      ].join('\n'),
    );
    expect(formatConfigProblems(['A is missing'])).toMatch(/^vidops cannot start: its configuration has a problem\./);
  });
});
