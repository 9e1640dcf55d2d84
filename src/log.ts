/**
 * Structured JSON logging: one line per record (`time`, `level`, `msg`, then fields),
 * child loggers with bound fields, the current Slack request's id, and redaction of anything
 * that looks secret before it is written.
 */
import { LogLevel as BoltLogLevel, type Logger as BoltLogger } from '@slack/logger';
import { currentRequest, currentRequestId } from './request-context';
import { scrub } from './scrub';

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
/** A logger's threshold: a level, or `silent` to write nothing (handy in tests). */
export type LogThreshold = LogLevel | 'silent';

export type LogFields = Record<string, unknown>;

/** Where log lines go: any writable stream (`process.stdout` by default) or a test double. */
export interface LogStream {
  write(line: string): unknown;
}

export interface Logger {
  readonly level: LogThreshold;
  trace(msg: string, fields?: LogFields): void;
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  isLevelEnabled(level: LogLevel): boolean;
  /** A logger writing to the same stream with `fields` added to every record. */
  child(fields: LogFields): Logger;
  /** Writes, as it is, a line another logger of this app wrote (the poller thread's, src/poller/thread.ts). */
  writeLine(line: string): void;
}

export interface LoggerOptions {
  level?: LogThreshold;
  stream?: LogStream;
  /** Fields written with every record, e.g. `{ service: 'vidops' }`. */
  bindings?: LogFields;
  now?: () => number;
}

const SEVERITY: Record<LogThreshold, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  silent: Infinity,
};

export const REDACTED = '[redacted]';

const SECRET_KEY = /secret|token|password|authorization|signature|jwt|accessKey|secretKey|accountKey|streamName|x-service-auth/i;

// Secrets recognisable by shape, wherever they turn up: JWTs (a base64url JSON header always
// starts with `eyJ`) and Slack bot, user, app-level, refresh and configuration tokens.
const SECRET_SHAPES = [/\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, /\bxox[a-z](?:\.xox[a-z])?-[A-Za-z0-9-]+/g, /\bxapp-[A-Za-z0-9-]+/g];

const MAX_DEPTH = 8;

export function redactString(text: string): string {
  return scrub(SECRET_SHAPES.reduce((out, shape) => out.replace(shape, REDACTED), text));
}

/**
 * A JSON-safe copy of `value` with secrets replaced by `[redacted]`: values under secret-looking
 * keys at any depth, and secret-shaped substrings anywhere. Errors become plain objects;
 * cycles, deep nesting and binary data are summarised instead of written out.
 */
export function redact(value: unknown): unknown {
  return redactValue(value, 0, new WeakSet());
}

function redactValue(value: unknown, depth: number, seen: WeakSet<object>): unknown {
  if (typeof value === 'string') return redactString(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (ArrayBuffer.isView(value)) return `[binary ${value.byteLength} bytes]`;
  if (seen.has(value)) return '[circular]';
  if (depth >= MAX_DEPTH) return '[truncated]';
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1, seen));
    const entries = value instanceof Error ? errorEntries(value) : Object.entries(value);
    const out: LogFields = {};
    for (const [key, item] of entries) {
      out[key] = SECRET_KEY.test(key) ? REDACTED : redactValue(item, depth + 1, seen);
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

function errorEntries(error: Error): [string, unknown][] {
  const entries: [string, unknown][] = [
    ['name', error.name],
    ['message', error.message],
  ];
  for (const [key, item] of Object.entries(error)) {
    if (key !== 'name' && key !== 'message') entries.push([key, item]);
  }
  if (error.stack !== undefined) entries.push(['stack', error.stack]);
  if (error.cause !== undefined) entries.push(['cause', error.cause]);
  return entries;
}

const RECORD_KEYS = new Set(['time', 'level', 'msg']);

/**
 * Answers of the video service that mean the asker got something wrong — a stream that is not
 * there, a second recording of a session already recorded, a value it refuses — as opposed to
 * the app's own failures (credentials refused 401/403, rate limits 429, 5xx, time-outs).
 */
const CALLERS_MISTAKES: ReadonlySet<number> = new Set([400, 404, 405, 408, 409, 410, 413, 422]);

/** An error the person asking caused (see CALLERS_MISTAKES; or refused before it was sent). */
export function isCallersMistake(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { status, code } = error as { status?: unknown; code?: unknown };
  return (typeof status === 'number' && CALLERS_MISTAKES.has(status)) || code === 'INVALID_REQUEST';
}

/** A caller's mistake as a log line shows it: what it was, without the stack. */
function mistakeSummary(error: Error): LogFields {
  const { status, code } = error as { status?: unknown; code?: unknown };
  return { name: error.name, message: error.message, ...(status !== undefined && { status }), ...(code !== undefined && { code }) };
}

/** A stream that never throws into the caller: logging must not take the process down. */
function safeStream(stream: LogStream): LogStream {
  return {
    write(line: string) {
      try {
        stream.write(line);
      } catch {
        // Closed pipe, full disk: the record is lost, the process goes on.
      }
    },
  };
}

/** A record as its line: `time` first, then the record's own keys in order, secrets redacted (`redact` also makes it JSON-safe). */
function jsonLine(time: number, record: LogFields): string {
  return `{"time":"${new Date(time).toISOString()}",${JSON.stringify(redact(record)).slice(1)}\n`;
}

class JsonLogger implements Logger {
  constructor(
    private readonly stream: LogStream,
    private readonly now: () => number,
    readonly level: LogThreshold,
    private readonly bindings: LogFields,
  ) {}

  writeLine(line: string): void {
    this.stream.write(line);
  }

  trace(msg: string, fields?: LogFields): void {
    this.write('trace', msg, fields);
  }
  debug(msg: string, fields?: LogFields): void {
    this.write('debug', msg, fields);
  }
  info(msg: string, fields?: LogFields): void {
    this.write('info', msg, fields);
  }
  warn(msg: string, fields?: LogFields): void {
    this.write('warn', msg, fields);
  }
  error(msg: string, fields?: LogFields): void {
    this.write('error', msg, fields);
  }

  isLevelEnabled(level: LogLevel): boolean {
    return SEVERITY[level] >= SEVERITY[this.level];
  }

  child(fields: LogFields): Logger {
    return new JsonLogger(this.stream, this.now, this.level, { ...this.bindings, ...fields });
  }

  private write(requested: LogLevel, msg: string, fields: LogFields | undefined): void {
    // warn and error are for the app's own failures: a warning about the asker's mistake is information.
    const mistake = requested === 'warn' && isCallersMistake(fields?.error);
    const level: LogLevel = mistake ? 'info' : requested;
    if (mistake && fields) fields = { ...fields, error: mistakeSummary(fields.error as Error) };
    if (!this.isLevelEnabled(level)) return;
    const record: LogFields = { level, msg };
    const requestId = currentRequestId();
    if (requestId !== undefined) record.requestId = requestId;
    for (const [key, value] of Object.entries({ ...this.bindings, ...fields })) {
      // A field may not overwrite the record's own keys; keep it under a visible alias.
      record[RECORD_KEYS.has(key) ? `fields.${key}` : key] = value;
    }
    // The request being handled names its user and channel, whatever a shared logger was bound to.
    const request = currentRequest();
    if (request?.user !== undefined) record.user = request.user;
    if (request?.channel !== undefined) record.channel = request.channel;
    this.stream.write(jsonLine(this.now(), record));
  }
}

/**
 * A logger writing JSON lines. Records made while a Slack request is handled carry its
 * `requestId`, `user` and `channel` (see request-context.ts).
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const stream = safeStream(options.stream ?? process.stdout);
  return new JsonLogger(stream, options.now ?? Date.now, options.level ?? 'info', options.bindings ?? {});
}

export function isLogLevel(value: string): value is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value);
}

const FROM_BOLT: Record<BoltLogLevel, LogLevel> = {
  [BoltLogLevel.DEBUG]: 'debug',
  [BoltLogLevel.INFO]: 'info',
  [BoltLogLevel.WARN]: 'warn',
  [BoltLogLevel.ERROR]: 'error',
};

const TO_BOLT: Record<LogThreshold, BoltLogLevel> = {
  trace: BoltLogLevel.DEBUG,
  debug: BoltLogLevel.DEBUG,
  info: BoltLogLevel.INFO,
  warn: BoltLogLevel.WARN,
  error: BoltLogLevel.ERROR,
  silent: BoltLogLevel.ERROR,
};

/**
 * Bolt's `Logger` on top of ours, so Bolt's and the Web API client's own logs get the same
 * format and redaction. Bolt passes loose arguments: strings become the message, errors and
 * other values go to `args`.
 */
export function toBoltLogger(logger: Logger): BoltLogger {
  let level: LogThreshold = logger.level;
  let target = logger.child({ component: 'bolt' });

  const log = (at: LogLevel, args: unknown[]): void => {
    if (SEVERITY[at] < SEVERITY[level]) return;
    const words = args.filter((arg): arg is string => typeof arg === 'string');
    const others = args.filter((arg) => typeof arg !== 'string');
    const msg = words.join(' ') || (others[0] instanceof Error ? others[0].message : '');
    target[at](msg, others.length > 0 ? { args: others } : undefined);
  };

  return {
    debug: (...args: unknown[]) => log('debug', args),
    info: (...args: unknown[]) => log('info', args),
    warn: (...args: unknown[]) => log('warn', args),
    error: (...args: unknown[]) => log('error', args),
    setLevel: (boltLevel: BoltLogLevel) => {
      level = FROM_BOLT[boltLevel] ?? 'info';
    },
    getLevel: () => TO_BOLT[level],
    setName: (name: string) => {
      target = logger.child({ component: name });
    },
  };
}
