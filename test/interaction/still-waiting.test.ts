/**
 * The Patience of one request on jest's fake clock: when "Still waiting…" shows (2 s into an
 * unanswered video call, never after an answer), how the answer replaces it, the bound, and what
 * a late answer does. End to end over HTTP: still-waiting-e2e.test.ts.
 */
import { createLogger } from '../../src/log';
import type { ResponseMessage } from '../../src/slack/respond';
import { DEFAULT_PATIENCE, Patience, type ReplyMode, currentPatience, runPatiently, trackVideoCalls } from '../../src/interaction/still-waiting';
import { textMessage } from '../../src/views/blocks';

function setUp(mode: ReplyMode = 'replace', lines: string[] = []) {
  const posted: ResponseMessage[] = [];
  const patience = new Patience({
    settings: DEFAULT_PATIENCE,
    respond: async (message) => void posted.push(message),
    mode,
    logger: createLogger({ level: 'info', stream: { write: (line: string) => lines.push(line) } }),
    atBound: (seconds) => textMessage(`nothing within ${seconds} s`),
  });
  patience.start();
  return { patience, posted, texts: () => posted.map((m) => m.text) };
}

/** A call that answers when told to. */
function pendingCall<T>() {
  let answer!: (value: T) => void;
  let fail!: (error: unknown) => void;
  const promise = new Promise<T>((resolve, reject) => {
    answer = resolve;
    fail = reject;
  });
  return { promise, answer, fail };
}

describe('Patience', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('says "Still waiting" 2 s into an unanswered call, not before, and the answer replaces it', async () => {
    const { patience, posted, texts } = setUp();
    const ended = patience.callStarted();
    await jest.advanceTimersByTimeAsync(1_999);
    expect(posted).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(texts()).toEqual(['Still waiting for the video service…']);
    // A slash command's waiting line is a message of its own…
    expect(posted[0]).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    ended();
    await patience.respond!({ ...textMessage('the answer'), response_type: 'ephemeral', replace_original: false });
    expect(texts()).toEqual(['Still waiting for the video service…', 'the answer']);
    // …which the answer replaces; only the first answer does.
    expect(posted[1]!.replace_original).toBe(true);
    await patience.respond!({ ...textMessage('more'), response_type: 'ephemeral', replace_original: false });
    expect(posted[2]!.replace_original).toBe(false);
    await patience.finish();
  });

  it('a call answered within 2 s never shows "Still waiting", even when the request goes on', async () => {
    const { patience, posted } = setUp();
    const ended = patience.callStarted();
    await jest.advanceTimersByTimeAsync(1_500);
    ended();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(posted).toEqual([]);
    await patience.finish();
  });

  it('after an answer, a slow call no longer shows "Still waiting"', async () => {
    const { patience, texts } = setUp();
    await patience.respond!({ ...textMessage('first'), response_type: 'ephemeral' });
    patience.callStarted();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(texts()).toEqual(['first']);
    await patience.finish();
  });

  it('on the asker’s own ephemeral message (a button on it) the waiting line replaces that message, then the answer does', async () => {
    const { patience, posted } = setUp('replace-source');
    patience.callStarted();
    await jest.advanceTimersByTimeAsync(2_000);
    expect(posted[0]).toMatchObject({ text: 'Still waiting for the video service…', replace_original: true });
    await patience.respond!({ ...textMessage('the answer'), response_type: 'ephemeral', replace_original: false });
    expect(posted[1]!.replace_original).toBe(true);
    await patience.finish();
  });

  it('on a channel card the waiting line is a message of its own: the answer does not replace the card', async () => {
    const { patience, posted } = setUp('append');
    patience.callStarted();
    await jest.advanceTimersByTimeAsync(2_000);
    expect(posted[0]).toMatchObject({ text: 'Still waiting for the video service…', replace_original: false });
    await patience.respond!({ ...textMessage('the answer'), response_type: 'ephemeral', replace_original: false });
    expect(posted[1]!.replace_original).toBe(false);
    await patience.finish();
  });

  it('at the bound, a request still waiting on the service says so, and later answers are dropped with a log line', async () => {
    const lines: string[] = [];
    const { patience, texts } = setUp('replace', lines);
    patience.callStarted();
    await jest.advanceTimersByTimeAsync(20_000);
    expect(texts()).toEqual(['Still waiting for the video service…', 'nothing within 20 s']);
    expect(patience.closed).toBe(true);
    await patience.respond!({ ...textMessage('too late'), response_type: 'ephemeral' });
    expect(texts()).toHaveLength(2);
    expect(lines.some((line) => line.includes('an answer after the bound was dropped'))).toBe(true);
    await patience.finish();
  });

  it('at the bound, a request not waiting on the service is left alone', async () => {
    const { patience, posted } = setUp();
    await jest.advanceTimersByTimeAsync(30_000);
    expect(posted).toEqual([]);
    expect(patience.boundPassed).toBe(true);
    await patience.finish();
  });

  it('race: the bound answers first and the late outcome is logged, not thrown', async () => {
    const lines: string[] = [];
    const { patience, posted } = setUp('replace', lines);
    const call = pendingCall<string>();
    const raced = patience.race(call.promise, '/mute');
    await jest.advanceTimersByTimeAsync(20_000);
    await expect(raced).resolves.toEqual({ answered: false });
    // The change path words this answer, not the default.
    expect(posted).toEqual([]);
    call.fail(new Error('late failure'));
    await jest.advanceTimersByTimeAsync(0);
    expect(lines.some((line) => line.includes('a late failure of the video service was dropped'))).toBe(true);
    await patience.finish();
  });

  it('race: an answer before the bound is the answer; a failure before it is thrown to the caller', async () => {
    const { patience } = setUp();
    const ok = pendingCall<string>();
    const raced = patience.race(ok.promise, '/mute');
    ok.answer('done');
    await expect(raced).resolves.toEqual({ answered: true, value: 'done' });
    const failing = pendingCall<string>();
    const failed = patience.race(failing.promise, '/mute');
    failing.fail(new Error('refused'));
    await expect(failed).rejects.toThrow('refused');
    await patience.finish();
  });

  it('finish clears the timers: nothing is posted after the request ended', async () => {
    const { patience, posted } = setUp();
    patience.callStarted();
    await patience.finish();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(posted).toEqual([]);
    expect(jest.getTimerCount()).toBe(0);
  });
});

describe('trackVideoCalls', () => {
  class Area {
    #secret = 'private field';
    slow(): Promise<string> {
      return new Promise((resolve) => setTimeout(() => resolve(this.#secret), 3_000));
    }
    sync(): string {
      return this.#secret;
    }
  }
  class Client {
    readonly area = new Area();
    #key = 'k';
    get key(): string {
      return this.#key;
    }
  }

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('calls made inside a request report to its Patience; private fields and getters still work', async () => {
    const client = trackVideoCalls(new Client());
    expect(client.key).toBe('k');
    expect(client.area.sync()).toBe('private field');
    const { patience, texts } = setUp();
    const answer = runPatiently(patience, () => {
      expect(currentPatience()).toBe(patience);
      return client.area.slow();
    });
    await jest.advanceTimersByTimeAsync(2_000);
    expect(texts()).toEqual(['Still waiting for the video service…']);
    await jest.advanceTimersByTimeAsync(1_000);
    await expect(answer).resolves.toBe('private field');
    await patience.finish();
  });

  it('calls outside a request (the poller) are untouched', async () => {
    const client = trackVideoCalls(new Client());
    const answer = client.area.slow();
    await jest.advanceTimersByTimeAsync(3_000);
    await expect(answer).resolves.toBe('private field');
    expect(currentPatience()).toBeUndefined();
  });
});

describe('Patience in a modal', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('the waiting line and the answer both replace the modal content, in order; a button’s message is left alone', async () => {
    const posted: ResponseMessage[] = [];
    const shown: string[] = [];
    const patience = new Patience({
      settings: DEFAULT_PATIENCE,
      respond: async (message) => void posted.push(message),
      mode: 'replace',
      logger: createLogger({ level: 'silent' }),
    });
    patience.start();
    const show = patience.inModal(async (message) => void shown.push(message.text));
    patience.callStarted();
    await jest.advanceTimersByTimeAsync(2_000);
    await show(textMessage('Recording started'));
    expect(shown).toEqual(['Still waiting for the video service…', 'Recording started']);
    expect(posted).toEqual([]);
    await patience.finish();
  });

  it('a waiting line nothing replaced says where the answer went', async () => {
    const shown: string[] = [];
    const patience = new Patience({ settings: DEFAULT_PATIENCE, mode: 'replace', logger: createLogger({ level: 'silent' }) });
    patience.start();
    patience.inModal(async (message) => void shown.push(message.text));
    const ended = patience.callStarted();
    await jest.advanceTimersByTimeAsync(2_000);
    ended();
    await patience.finish(textMessage('see the channel'));
    expect(shown).toEqual(['Still waiting for the video service…', 'see the channel']);
  });
});
