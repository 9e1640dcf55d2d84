/**
 * The soak's traffic: which command comes next (a fixed mix, seeded), and the signed requests
 * Slack would send for it and for a click on the button of the notice it posts.
 */
import { type SignedRequest, signedInteraction, signedSlashCommand } from '../../test/harness/signing';
import { ACTION } from '../../src/views/ids';
import { MODERATOR, OPS_CHANNEL, SIGNING_SECRET, TEAM } from './protocol';

export interface Command {
  /** Short name for the tables, e.g. `/record list`. */
  kind: string;
  command: string;
  text: string;
  /** The button the scenario clicks on the notice the command posts in the channel, if any. */
  click?: string;
}

/** Mute everyone acts at once (it is reversible) and its channel notice carries Undo. */
export const UNDO_MUTE_ALL = ACTION.undoMuteAll;

/** The mix, by weight: reads most, mute everyone and its Undo, the odd usage report. */
const MIX: { weight: number; make: (session: string) => Command }[] = [
  { weight: 30, make: (s) => ({ kind: '/streams', command: '/streams', text: s }) },
  { weight: 20, make: (s) => ({ kind: '/record list', command: '/record', text: `list ${s}` }) },
  { weight: 15, make: (s) => ({ kind: '/mute-all + Undo', command: '/mute-all', text: s, click: UNDO_MUTE_ALL }) },
  { weight: 29.8, make: () => ({ kind: '/video help', command: '/video', text: 'help' }) },
  { weight: 5, make: () => ({ kind: '/record list --all', command: '/record', text: 'list --all' }) },
  { weight: 0.2, make: () => ({ kind: '/usage', command: '/usage', text: 'last 30 days --by sdk' }) },
];
const TOTAL_WEIGHT = MIX.reduce((sum, m) => sum + m.weight, 0);

export function nextCommand(random: () => number, sessions: readonly string[]): Command {
  let roll = random() * TOTAL_WEIGHT;
  const session = sessions[Math.floor(random() * sessions.length)]!;
  for (const entry of MIX) {
    roll -= entry.weight;
    if (roll < 0) return entry.make(session);
  }
  return MIX[0]!.make(session);
}

let triggers = 0;
const trigger = () => `${++triggers}.${Date.now()}.soak`;

export function slashRequest(c: Command, responseUrl: string): SignedRequest {
  return signedSlashCommand(SIGNING_SECRET, {
    token: 'legacy-verification-token',
    team_id: TEAM,
    team_domain: 'vidops-soak',
    channel_id: OPS_CHANNEL,
    channel_name: 'ops',
    user_id: MODERATOR,
    user_name: 'moderator',
    command: c.command,
    text: c.text,
    api_app_id: 'A0VIDOPS',
    is_enterprise_install: 'false',
    response_url: responseUrl,
    trigger_id: trigger(),
  });
}

/** A click on the button of a message posted in the channel. */
export function clickRequest(actionId: string, value: string, messageTs: string, responseUrl: string): SignedRequest {
  return signedInteraction(SIGNING_SECRET, {
    type: 'block_actions',
    user: { id: MODERATOR, username: 'moderator', name: 'moderator', team_id: TEAM },
    api_app_id: 'A0VIDOPS',
    token: 'legacy-verification-token',
    container: { type: 'message', message_ts: messageTs, channel_id: OPS_CHANNEL, is_ephemeral: false },
    trigger_id: trigger(),
    team: { id: TEAM, domain: 'vidops-soak' },
    enterprise: null,
    is_enterprise_install: false,
    channel: { id: OPS_CHANNEL, name: 'ops' },
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
