/**
 * Helpers for the poller end-to-end tests: start something the way a command does (a card in
 * the channel, then `services.track`), and read what the fake Slack holds in its thread.
 */
import { webApi } from '@slack/bolt';
import type { TrackRequest } from '../../src/poller/track';
import type { Watch, WatchFilter } from '../../src/poller/watch';
import { BOT_TOKEN, CHANNEL, TEAM, type TestApp } from '../harness/app';
import type { StoredMessage } from '../harness/fake-slack';

/** Posts a card as a command would, and hands the resource to the poller with it. */
export async function trackWithCard(t: TestApp, request: Omit<TrackRequest, 'target'> & { channel?: string; text?: string }): Promise<string> {
  const client = new webApi.WebClient(BOT_TOKEN, { slackApiUrl: t.slack.apiUrl });
  const channel = request.channel ?? CHANNEL;
  const posted = await client.chat.postMessage({ channel, text: request.text ?? `${request.kind} ${request.resourceId}` });
  const messageTs = posted.ts!;
  await t.services.track({
    kind: request.kind,
    resourceId: request.resourceId,
    sessionId: request.sessionId,
    initialState: request.initialState,
    target: { teamId: TEAM, channelId: channel, messageTs, projectName: 'prod' },
  });
  return messageTs;
}

/** The texts of the replies in a card's thread, oldest first. */
export function threadTexts(t: TestApp, cardTs: string, channel = CHANNEL): string[] {
  return t.slack.threadReplies(channel, cardTs).map((m) => m.text);
}

/** The card as last updated. */
export function card(t: TestApp, cardTs: string, channel = CHANNEL): StoredMessage {
  const found = t.slack.messages(channel).find((m) => m.ts === cardTs);
  if (!found) throw new Error(`no card ${cardTs} in ${channel}`);
  return found;
}

/** Every notification key posted (from message metadata), to check each was posted once. */
export function postedKeys(t: TestApp, channel = CHANNEL): string[] {
  return t.slack
    .messages(channel)
    .map((m) => m.metadata?.event_payload?.key)
    .filter((k): k is string => typeof k === 'string');
}

export function duplicates(keys: readonly string[]): string[] {
  const seen = new Set<string>();
  return keys.filter((k) => (seen.has(k) ? true : (seen.add(k), false)));
}

/**
 * Resolves once the store holds a watch matching `filter` (a command adds it after its ack and
 * its card): yields to the event loop between looks, gives up after `timeoutMs`.
 */
export async function waitForWatch(t: TestApp, filter: WatchFilter, timeoutMs = 5_000): Promise<Watch> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [found] = await t.store.listWatches(filter);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no watch matching ${JSON.stringify(filter)} within ${timeoutMs} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
