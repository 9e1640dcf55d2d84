/**
 * Slack deliveries built once and sent as often as a test likes: the first time as Slack sends
 * it, then as Slack's retry of it (same payload, freshly signed, with `X-Slack-Retry-Num` and
 * `X-Slack-Retry-Reason`), to one app or to another replica.
 */
import { CHANNEL, SIGNING_SECRET, TEAM, USERS, slashCommandFields } from '../../harness/app';
import { type SignedRequest, signBody } from '../../harness/signing';

let counter = 0;
const unique = (what: string): string => `${++counter}.${Date.now()}.${what}${counter}`;

export interface Delivery {
  /** The form body Slack posts (same bytes on every retry). */
  body: string;
  /** Signed as Slack signs it now; `retryNum` > 0 adds Slack's retry headers. */
  signed(retryNum?: number, retryReason?: string): SignedRequest;
}

function delivery(body: string): Delivery {
  return {
    body,
    signed(retryNum = 0, retryReason = 'http_timeout') {
      // Slack signs each retry when it sends it, later than the first delivery: a new signature
      // (the same signed bytes again are a replay, which the signature guard drops itself).
      const request = signBody(SIGNING_SECRET, body, 'application/x-www-form-urlencoded', Math.floor(Date.now() / 1000) + retryNum);
      if (retryNum === 0) return request;
      return { body, headers: { ...request.headers, 'x-slack-retry-num': String(retryNum), 'x-slack-retry-reason': retryReason } };
    },
  };
}

export interface Who {
  user?: string;
  channel?: string;
}

/** A slash command with its own trigger_id and the given response_url. */
export function slashDelivery(command: string, text: string, responseUrl: string, who: Who = {}): Delivery {
  const user = who.user ?? USERS.moderator;
  const channel = who.channel ?? CHANNEL;
  return delivery(new URLSearchParams(slashCommandFields({ command, text, user, channel, responseUrl, triggerId: unique('trigger') })).toString());
}

function interaction(payload: unknown): Delivery {
  return delivery(new URLSearchParams({ payload: JSON.stringify(payload) }).toString());
}

/** A button click (block_actions) on a message whose response_url is given. */
export function clickDelivery(actionId: string, value: string, responseUrl: string, who: Who = {}): Delivery {
  const user = who.user ?? USERS.moderator;
  const channel = who.channel ?? CHANNEL;
  return interaction({
    type: 'block_actions',
    user: { id: user, username: user.toLowerCase(), name: user.toLowerCase(), team_id: TEAM },
    api_app_id: 'A0VIDOPS',
    token: 'legacy-verification-token',
    container: { type: 'message', message_ts: '1700000000.000100', channel_id: channel, is_ephemeral: false },
    trigger_id: unique('trigger'),
    team: { id: TEAM, domain: 'vidops-test' },
    enterprise: null,
    is_enterprise_install: false,
    channel: { id: channel, name: channel.toLowerCase() },
    state: { values: {} },
    response_url: responseUrl,
    actions: [
      {
        action_id: actionId,
        block_id: 'b1',
        text: { type: 'plain_text', text: 'button', emoji: true },
        value,
        type: 'button',
        action_ts: `${Date.now() / 1000}`,
      },
    ],
  });
}

/** A modal submission (view_submission). */
export function viewDelivery(callbackId: string, viewId: string, values: Record<string, Record<string, unknown>>, who: Who = {}): Delivery {
  const user = who.user ?? USERS.moderator;
  return interaction({
    type: 'view_submission',
    team: { id: TEAM, domain: 'vidops-test' },
    user: { id: user, username: user.toLowerCase(), name: user.toLowerCase(), team_id: TEAM },
    api_app_id: 'A0VIDOPS',
    token: 'legacy-verification-token',
    trigger_id: unique('trigger'),
    view: {
      id: viewId,
      team_id: TEAM,
      type: 'modal',
      blocks: [],
      private_metadata: '',
      callback_id: callbackId,
      state: { values },
      hash: '1700000000.abc',
      title: { type: 'plain_text', text: 'x' },
      clear_on_close: false,
      notify_on_close: false,
      root_view_id: viewId,
      app_id: 'A0VIDOPS',
      external_id: '',
      app_installed_team_id: TEAM,
      bot_id: 'B0BOT',
    },
    response_urls: [],
    is_enterprise_install: false,
    enterprise: null,
  });
}

/** Posts a signed request to an app's Slack endpoint. */
export async function deliver(appUrl: string, request: SignedRequest): Promise<{ status: number; body: string }> {
  const res = await fetch(`${appUrl}/slack/events`, { method: 'POST', headers: request.headers, body: request.body });
  return { status: res.status, body: await res.text() };
}
