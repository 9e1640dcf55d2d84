/**
 * How the app answers: ephemeral replies to the person who asked (response_url when there is
 * one, else chat.postEphemeral, else a DM), and in-channel notices for state changes — with a
 * fallback to an ephemeral copy that says how to invite the bot when it cannot post there.
 */
import type { webApi } from '@slack/bolt';
import type { Logger } from '../log';
import type { SlackMessage } from '../views/blocks';
import { context } from '../views/blocks';
import { slackFailureReason } from './failure-reason';
import { postOnce } from './post-once';
import { scrubDeep } from '../scrub';

export interface ResponseMessage extends SlackMessage {
  response_type?: 'ephemeral' | 'in_channel';
  replace_original?: boolean;
  delete_original?: boolean;
}

/** Posts to the interaction's response_url (Bolt's `respond`). */
export type RespondFn = (message: ResponseMessage) => Promise<unknown>;

/** Who asked, where, and the ways to answer them. */
export interface Audience {
  client: webApi.WebClient;
  userId: string;
  channelId?: string;
  respond?: RespondFn;
  logger: Logger;
}

/** Errors meaning "the bot cannot post in this conversation". */
const CANNOT_POST = new Set(['not_in_channel', 'channel_not_found', 'is_archived', 'restricted_action', 'access_denied']);

export function slackErrorCode(err: unknown): string | undefined {
  const data = (err as { data?: { error?: unknown } } | undefined)?.data;
  return typeof data?.error === 'string' ? data.error : undefined;
}

/** An answer only the asker sees. */
export async function replyEphemeral(to: Audience, unscrubbed: SlackMessage, options: { replaceOriginal?: boolean } = {}): Promise<void> {
  const message = scrubDeep(unscrubbed);
  if (to.respond) {
    await to.respond({ ...message, response_type: 'ephemeral', replace_original: options.replaceOriginal ?? false });
    return;
  }
  if (to.channelId) {
    try {
      await to.client.chat.postEphemeral({ channel: to.channelId, user: to.userId, text: message.text, blocks: message.blocks });
      return;
    } catch (err) {
      if (!CANNOT_POST.has(slackErrorCode(err) ?? '')) throw err;
    }
  }
  await to.client.chat.postMessage({ channel: to.userId, text: message.text, blocks: message.blocks });
}

export interface AnnounceResult {
  /** `channel` when posted in the channel, `ephemeral` when only the asker got it. */
  delivered: 'channel' | 'ephemeral';
  channel?: string;
  ts?: string;
}

/**
 * Posts a state-change notice in the channel for everyone to see. When the bot is not a member
 * (private channels, or public ones it was never invited to), the asker gets the notice
 * ephemerally with a line on how to invite the bot.
 */
export async function announce(to: Audience, unscrubbed: SlackMessage, channelId: string | undefined = to.channelId): Promise<AnnounceResult> {
  const message = scrubDeep(unscrubbed);
  let note = 'Only you can see this.';
  if (channelId) {
    try {
      const posted = await postOnce(
        to.client,
        { channel: channelId, text: message.text, blocks: message.blocks, unfurl_links: false, unfurl_media: false },
        { logger: to.logger },
      );
      return { delivered: 'channel', channel: posted.channel, ts: posted.ts };
    } catch (err) {
      const code = slackErrorCode(err);
      if (CANNOT_POST.has(code ?? '')) {
        to.logger.info('cannot post in the channel; answering the user only', { channel: channelId, error: code });
        note = 'Only you can see this: I am not a member of this channel. Invite me with `/invite @vidops` so everyone sees what changed.';
      } else {
        // The change is made; whatever Slack's trouble (after the client's retries), the asker
        // must hear of it, through the response_url when there is one.
        to.logger.warn('Slack did not take the notice for the channel; answering the user only', { channel: channelId, error: err });
        note = `Only you can see this: the channel did not get this notice (${slackFailureReason(err) ?? 'Slack refused it'}). Tell the channel if they need to know.`;
      }
    }
  }
  await replyEphemeral({ ...to, channelId }, { text: message.text, blocks: [...message.blocks.slice(0, 49), context(note)] });
  return { delivered: 'ephemeral' };
}
