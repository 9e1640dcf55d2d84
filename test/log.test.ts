import { LogLevel as BoltLogLevel } from '@slack/logger';
import { createLogger, redact, REDACTED, toBoltLogger, type LogFields, type LoggerOptions } from '../src/log';

const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiIxMjM0NTYiLCJpc3QiOiJwcm9qZWN0In0.c2lnbmF0dXJlLWJ5dGVzLWhlcmU';
const BOT_TOKEN = 'xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOp';
const APP_TOKEN = 'xapp-1-A012345-1234567890-abcdef0123456789';

function capture(options: Omit<LoggerOptions, 'stream'> = {}) {
  const lines: string[] = [];
  const logger = createLogger({ now: () => Date.UTC(2025, 0, 2, 3, 4, 5), ...options, stream: { write: (line: string) => lines.push(line) } });
  const records = () => lines.map((line) => JSON.parse(line) as LogFields);
  return { logger, lines, records };
}

describe('createLogger', () => {
  it('writes one JSON line per record: time, level, msg, then fields', () => {
    const { logger, lines } = capture();
    logger.info('session started', { sessionId: 'S1', count: 2 });
    expect(lines).toEqual(['{"time":"2025-01-02T03:04:05.000Z","level":"info","msg":"session started","sessionId":"S1","count":2}\n']);
  });

  it.each([
    ['trace', ['trace', 'debug', 'info', 'warn', 'error']],
    ['debug', ['debug', 'info', 'warn', 'error']],
    ['info', ['info', 'warn', 'error']],
    ['warn', ['warn', 'error']],
    ['error', ['error']],
    ['silent', []],
  ] as const)('at level %s writes %j', (level, expected) => {
    const { logger, records } = capture({ level });
    logger.trace('m');
    logger.debug('m');
    logger.info('m');
    logger.warn('m');
    logger.error('m');
    expect(records().map((r) => r.level)).toEqual(expected);
  });

  it('binds fields in child loggers without touching the parent', () => {
    const { logger, records } = capture({ bindings: { service: 'vidops' } });
    const request = logger.child({ requestId: 'r-1' });
    request.child({ command: '/video' }).warn('slow', { ms: 2500 });
    logger.info('plain');
    expect(records()).toEqual([
      { time: expect.any(String), level: 'warn', msg: 'slow', service: 'vidops', requestId: 'r-1', command: '/video', ms: 2500 },
      { time: expect.any(String), level: 'info', msg: 'plain', service: 'vidops' },
    ]);
  });

  it('never lets a field overwrite time, level or msg', () => {
    const { logger, records } = capture();
    logger.info('real', { msg: 'fake', level: 'error' });
    expect(records()[0]).toMatchObject({ level: 'info', msg: 'real', 'fields.msg': 'fake', 'fields.level': 'error' });
  });

  it('serialises errors with their name, message, own fields and cause', () => {
    const { logger, records } = capture();
    const error = Object.assign(new Error('conflict', { cause: new Error('root') }), { status: 409 });
    logger.error('call failed', { error });
    expect(records()[0]?.error).toMatchObject({
      name: 'Error',
      message: 'conflict',
      status: 409,
      stack: expect.stringContaining('conflict'),
      cause: { name: 'Error', message: 'root' },
    });
  });

  it('survives a stream that throws', () => {
    const logger = createLogger({
      stream: {
        write: () => {
          throw new Error('EPIPE');
        },
      },
    });
    expect(() => logger.info('x')).not.toThrow();
  });
});

describe('redaction', () => {
  it.each([
    'secret',
    'apiSecret',
    'token',
    'accessToken',
    'password',
    'Authorization',
    'signature',
    'x-slack-signature',
    'jwt',
    'accessKey',
    'secretKey',
    'accountKey',
    'streamName',
    'X-SERVICE-AUTH',
  ])('redacts a field named %s', (key) => {
    expect(redact({ [key]: 'value', other: 'kept' })).toEqual({ [key]: REDACTED, other: 'kept' });
  });

  it('redacts at any depth, in arrays, and whole objects under a secret key', () => {
    const input = {
      project: { name: 'prod', credentials: { apiKey: '46000000', apiSecret: 's3cr3t' } },
      targets: [{ type: 's3', config: { accessKey: 'AKIA', secretKey: 'shh', bucket: 'b' } }],
      headers: { authorization: { scheme: 'Bearer', value: 'abc' } },
    };
    expect(redact(input)).toEqual({
      project: { name: 'prod', credentials: { apiKey: '46000000', apiSecret: REDACTED } },
      targets: [{ type: 's3', config: { accessKey: REDACTED, secretKey: REDACTED, bucket: 'b' } }],
      headers: { authorization: REDACTED },
    });
  });

  it.each([
    ['a JWT', JWT],
    ['a bot token', BOT_TOKEN],
    ['a user token', 'xoxp-1111-2222-3333-abcdef'],
    ['an app-level token', APP_TOKEN],
    ['a refresh token', 'xoxe.xoxp-1-Mi0yLTEyMzQ1'],
  ])('redacts %s in plain strings under innocent keys', (_name, secret) => {
    const output = JSON.stringify(redact({ note: `header was Bearer ${secret} today`, list: [secret] }));
    expect(output).not.toContain(secret);
    expect(redact({ note: `Bearer ${secret} today` })).toEqual({ note: `Bearer ${REDACTED} today` });
  });

  it('redacts secrets in the message and in bound fields', () => {
    const { logger, lines } = capture();
    logger.child({ botToken: BOT_TOKEN, user: 'U1' }).info(`posting with ${BOT_TOKEN}`, { debug: [`jwt=${JWT}`] });
    expect(lines[0]).not.toContain(BOT_TOKEN);
    expect(lines[0]).not.toContain(JWT);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ msg: `posting with ${REDACTED}`, botToken: REDACTED, user: 'U1' });
  });

  it('leaves ordinary dotted strings alone', () => {
    expect(redact({ host: 'video.api.example.com', version: '1.2.3' })).toEqual({ host: 'video.api.example.com', version: '1.2.3' });
  });

  it('summarises cycles, binary data and bigints instead of failing', () => {
    const node: LogFields = { name: 'a' };
    node.self = node;
    expect(redact({ node, body: Buffer.from('abc'), big: 10n, at: new Date(0) })).toEqual({
      node: { name: 'a', self: '[circular]' },
      body: '[binary 3 bytes]',
      big: '10',
      at: '1970-01-01T00:00:00.000Z',
    });
  });

  it('writes a repeated (non-cyclic) object in full each time', () => {
    const shared = { id: 1 };
    expect(redact({ a: shared, b: shared })).toEqual({ a: { id: 1 }, b: { id: 1 } });
  });
});

describe('toBoltLogger', () => {
  it('routes Bolt logs through the same format and redaction', () => {
    const { logger, records } = capture({ level: 'debug' });
    const bolt = toBoltLogger(logger);
    bolt.setName('bolt-app');
    bolt.warn('http request failed', { headers: { authorization: `Bearer ${BOT_TOKEN}` } });
    bolt.error(new Error(`token ${BOT_TOKEN} revoked`));
    expect(records()).toEqual([
      {
        time: expect.any(String),
        level: 'warn',
        msg: 'http request failed',
        component: 'bolt-app',
        args: [{ headers: { authorization: REDACTED } }],
      },
      {
        time: expect.any(String),
        level: 'error',
        msg: `token ${REDACTED} revoked`,
        component: 'bolt-app',
        args: [expect.objectContaining({ name: 'Error', message: `token ${REDACTED} revoked` })],
      },
    ]);
  });

  it('has its own level, reported in Bolt terms', () => {
    const { logger, records } = capture({ level: 'debug' });
    const bolt = toBoltLogger(logger);
    expect(bolt.getLevel()).toBe(BoltLogLevel.DEBUG);
    bolt.setLevel(BoltLogLevel.WARN);
    bolt.info('dropped');
    bolt.warn('kept');
    expect(bolt.getLevel()).toBe(BoltLogLevel.WARN);
    expect(records().map((r) => r.msg)).toEqual(['kept']);
  });
});
