import { type FakeSlack, startFakeSlack } from './fake-slack';

const TOKEN = 'xoxb-fake-slack-test';

describe('fake Slack', () => {
  let slack: FakeSlack;

  beforeEach(async () => {
    slack = await startFakeSlack({ botToken: TOKEN });
  });

  afterEach(async () => {
    await slack.close();
  });

  const call = async (method: string, body: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const response = await fetch(`${slack.apiUrl}${method}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify(body),
    });
    return (await response.json()) as Record<string, unknown>;
  };
  const post = async (channel: string, text: string, threadTs?: string): Promise<string> =>
    String((await call('chat.postMessage', { channel, text, ...(threadTs && { thread_ts: threadTs }) })).ts);

  test('finds a message by ts and a thread by its parent among many, per channel', async () => {
    const parents: string[] = [];
    for (let i = 0; i < 30; i++) parents.push(await post('C1', `card ${i}`));
    const other = await post('C2', 'elsewhere');
    const replies = [await post('C1', 'first reply', parents[7]), await post('C1', 'second reply', parents[7]), await post('C1', 'other thread', parents[8])];

    expect(await call('chat.update', { channel: 'C1', ts: parents[7], text: 'card 7, updated' })).toMatchObject({ ok: true });
    expect(slack.messages('C1').find((m) => m.ts === parents[7])).toMatchObject({ text: 'card 7, updated', updates: 1 });
    // Not in that channel: nothing changes.
    await call('chat.update', { channel: 'C1', ts: other, text: 'not here' });
    expect(slack.messages('C2')).toEqual([expect.objectContaining({ text: 'elsewhere', updates: 0 })]);

    const thread = await call('conversations.replies', { channel: 'C1', ts: parents[7] });
    expect((thread.messages as { ts: string; text: string }[]).map((m) => m.text)).toEqual(['card 7, updated', 'first reply', 'second reply']);
    expect(slack.threadReplies('C1', parents[7]!).map((m) => m.ts)).toEqual(replies.slice(0, 2));
    expect(await call('conversations.replies', { channel: 'C2', ts: parents[7] })).toEqual({ ok: false, error: 'thread_not_found' });
    const history = await call('conversations.history', { channel: 'C1', limit: 2 });
    expect((history.messages as { text: string }[]).map((m) => m.text)).toEqual(['card 29', 'card 28']);
  });

  test('forgets calls and responses recorded before a mark, and still counts every call', async () => {
    await post('C1', 'one');
    const answer = slack.newResponseUrl();
    await fetch(answer, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'a command answer' }) });
    await post('C1', 'two');
    const mark = slack.mark();
    await call('chat.update', { channel: 'C1', ts: slack.messages('C1')[0]!.ts, text: 'one, updated' });
    await post('C1', 'three');

    expect(slack.responses).toHaveLength(1);
    slack.forgetBefore(mark);
    expect(slack.calls.map((c) => c.method)).toEqual(['chat.update', 'chat.postMessage']);
    expect(slack.responses).toEqual([]);
    expect(slack.callCounts()).toEqual({ 'chat.postMessage': 3, 'chat.update': 1 });
    // Messages stay; waits from the mark on still see what came after it.
    expect(slack.messages('C1').map((m) => m.text)).toEqual(['one, updated', 'two', 'three']);
    await expect(slack.waitForCall('chat.update', undefined, { since: mark, timeoutMs: 10 })).resolves.toMatchObject({ method: 'chat.update' });
    slack.forgetBefore(slack.mark());
    expect(slack.calls).toEqual([]);
    expect(slack.callCounts()).toEqual({ 'chat.postMessage': 3, 'chat.update': 1 });
  });
});
