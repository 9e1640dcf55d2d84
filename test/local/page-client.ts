/**
 * What the page does, from a test: JSON calls under `/local/`, and waits that end the moment the
 * state the test wants appears (checked again on every event of `/local/events`, never by sleeping).
 */
import type { Message, View } from '../../src/local/slack-standin/types';

export interface LocalState {
  team: { id: string };
  user: { id: string; name: string };
  channels: Array<{ id: string; name: string }>;
  messages: Message[];
  views: View[];
  home: View | null;
  emulator: {
    embedded: boolean;
    sessionIds: string[];
    now: string;
    sessions: Array<{ id: string; participants: Array<{ connectionId: string; name: string; streams: Array<{ streamId: string; videoType: string }> }> }>;
    archives: Array<{ id: string; sessionId: string; status: string }>;
  };
}

export type Answer = { ok: boolean; error?: string; errors?: Record<string, string> } & Record<string, unknown>;

export class PageClient {
  constructor(readonly url: string) {}

  async post(path: string, body: unknown = {}): Promise<Answer> {
    const res = await fetch(new URL(path, this.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (res.status !== 200) throw new Error(`${path} answered HTTP ${res.status}: ${await res.text()}`);
    return (await res.json()) as Answer;
  }

  async state(): Promise<LocalState> {
    const res = await fetch(new URL('/local/state', this.url));
    return (await res.json()) as LocalState;
  }

  command(text: string, channel = 'C0LOCAL01'): Promise<Answer> {
    return this.post('/local/command', { channel, text });
  }

  /** Resolves with `probe`'s first defined answer, checking now and after every change event. */
  async waitFor<T>(probe: (state: LocalState) => T | undefined, what: string, timeoutMs = 10_000): Promise<T> {
    const abort = new AbortController();
    const events = await fetch(new URL('/local/events', this.url), { signal: abort.signal });
    const reader = events.body!.getReader();
    let last: LocalState | undefined;
    const check = async (): Promise<T | undefined> => {
      last = await this.state();
      return probe(last);
    };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const texts = last?.messages.map((m) => m.text.slice(0, 60)) ?? [];
        reject(
          new Error(`no ${what} within ${timeoutMs} ms; messages: ${JSON.stringify(texts)}; views: ${JSON.stringify(last?.views.map((v) => v.callback_id))}`),
        );
      }, timeoutMs);
    });
    const watch = (async (): Promise<T> => {
      const now = await check();
      if (now !== undefined) return now;
      const decoder = new TextDecoder();
      let buffered = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) throw new Error('the event stream ended');
        buffered += decoder.decode(value, { stream: true });
        if (!buffered.includes('\n\n')) continue;
        buffered = buffered.slice(buffered.lastIndexOf('\n\n') + 2);
        const found = await check();
        if (found !== undefined) return found;
      }
    })();
    try {
      return await Promise.race([watch, timeout]);
    } finally {
      clearTimeout(timer);
      abort.abort();
      watch.catch(() => undefined);
    }
  }

  /**
   * Opens `/local/events`, runs `act`, and collects the changes streamed until `enough` says so.
   * The stream is open before `act` runs, so nothing it causes is missed.
   */
  async changesDuring(
    act: () => Promise<unknown>,
    enough: (changes: Array<Record<string, unknown>>) => boolean,
    timeoutMs = 10_000,
  ): Promise<Array<Record<string, unknown>>> {
    const abort = new AbortController();
    const res = await fetch(new URL('/local/events', this.url), { signal: abort.signal });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    const changes: Array<Record<string, unknown>> = [];
    const decoder = new TextDecoder();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`not enough changes within ${timeoutMs} ms: ${JSON.stringify(changes.map((c) => c.type))}`)), timeoutMs);
    });
    const read = (async () => {
      let buffered = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) throw new Error('the event stream ended');
        buffered += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          const event = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          for (const line of event.split('\n')) if (line.startsWith('data: ')) changes.push(JSON.parse(line.slice('data: '.length)) as Record<string, unknown>);
        }
        if (enough(changes)) return changes;
      }
    })();
    try {
      await act();
      return await Promise.race([read, timeout]);
    } finally {
      clearTimeout(timer);
      abort.abort();
      read.catch(() => undefined);
    }
  }

  /** A message whose text or blocks contain `needle`. */
  waitForMessage(needle: string | RegExp, where: (m: Message) => boolean = () => true): Promise<Message> {
    const matches = (m: Message) => {
      const text = `${m.text}\n${JSON.stringify(m.blocks ?? [])}`;
      return typeof needle === 'string' ? text.includes(needle) : needle.test(text);
    };
    return this.waitFor((s) => s.messages.find((m) => where(m) && matches(m)), `message matching ${needle}`);
  }
}
