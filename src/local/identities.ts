/**
 * The one workspace local mode pretends to be (PROTOCOL.md, "Identities"): a team, the person at
 * the keyboard, two channels and a direct-message conversation with the app, and the bot.
 */
export const LOCAL_TEAM = { id: 'T0LOCAL01', domain: 'vidops-local', name: 'vidops (local)' } as const;
export const LOCAL_USER = { id: 'U0LOCAL01', name: 'you' } as const;
export const LOCAL_BOT = { botId: 'B0LOCAL01', userId: 'U0LOCALBOT', name: 'vidops' } as const;
export const LOCAL_APP_ID = 'A0LOCAL01';
/** The app's direct messages with the user (App Home's Messages tab, `chat.postMessage` to a user id). */
export const LOCAL_DM = { id: 'D0LOCAL01', name: 'vidops (direct messages)' } as const;

export interface LocalChannel {
  id: string;
  name: string;
}

export const LOCAL_CHANNELS: readonly LocalChannel[] = [
  { id: 'C0LOCAL01', name: 'video-ops' },
  { id: 'C0LOCAL02', name: 'town-hall' },
];

export const DEFAULT_CHANNEL = LOCAL_CHANNELS[0]!;

/** Every conversation the stand-in knows: the channels, then the direct messages. */
export const LOCAL_CONVERSATIONS: readonly LocalChannel[] = [...LOCAL_CHANNELS, LOCAL_DM];

/** Where a post addressed to `channel` lands: an id, a channel name (`#video-ops`), or a user id (their DM). */
export function resolveConversation(channel: string): LocalChannel | undefined {
  if (channel === LOCAL_USER.id) return LOCAL_DM;
  const name = channel.replace(/^#/, '');
  return LOCAL_CONVERSATIONS.find((c) => c.id === channel || (c.id !== LOCAL_DM.id && c.name === name));
}
