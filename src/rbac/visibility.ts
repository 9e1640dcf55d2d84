/**
 * What someone may see outside a channel (App Home, option searches, a shortcut's form): the
 * sessions, aliases and watches of projects they may view, and nothing at all without a role.
 *
 * - Aliases and recent sessions: those of projects the person views where they act (the channel
 *   of the request when there is one; else through global and project grants only).
 * - Watches (App Home): those of projects the person views in the watch's own channel, and only
 *   in public channels. Whether a channel is public is asked with `conversations.info` (scope
 *   `channels:read`) and remembered for a while; a private channel, or one that cannot be looked
 *   up, keeps its watches to itself.
 */
import type { webApi } from '@slack/bolt';
import type { RecentSession, SessionAlias } from '../store/types';
import type { Watch } from '../poller/watch';
import type { Authorizer } from './index';

const PUBLIC_TTL_MS = 10 * 60_000;

/** Public channels seen lately; anything else is treated as private. */
export class PublicChannels {
  private readonly until = new Map<string, number>();

  constructor(private readonly clock: () => number = Date.now) {}

  async isPublic(client: webApi.WebClient, channelId: string): Promise<boolean> {
    const now = this.clock();
    const known = this.until.get(channelId);
    if (known !== undefined && known > now) return true;
    try {
      const info = (await client.conversations.info({ channel: channelId })) as { channel?: { is_private?: boolean; is_im?: boolean; is_mpim?: boolean } };
      const open = info.channel?.is_private === false && !info.channel.is_im && !info.channel.is_mpim;
      if (open) this.until.set(channelId, now + PUBLIC_TTL_MS);
      else this.until.delete(channelId);
      return open;
    } catch {
      return false;
    }
  }
}

export interface Viewer {
  client: webApi.WebClient;
  authorizer: Authorizer;
  userId: string;
  teamId: string;
  /** Every configured project. */
  projects: readonly string[];
}

/** Aliases and recent sessions of the projects the viewer may see acting in `channelId` (or nowhere in particular). */
export async function visibleSessions(
  viewer: Viewer,
  found: { aliases: readonly SessionAlias[]; recent: readonly RecentSession[] },
  channelId?: string,
): Promise<{ aliases: SessionAlias[]; recent: RecentSession[] }> {
  const projects = new Set(await viewer.authorizer.viewableProjects(viewer.client, viewer.userId, viewer.teamId, viewer.projects, channelId));
  return {
    aliases: found.aliases.filter((a) => projects.has(a.projectName)),
    recent: found.recent.filter((r) => projects.has(r.projectName)),
  };
}

/** Watches of public channels whose project the viewer may see in that channel. */
export async function visibleWatches(viewer: Viewer, watches: readonly Watch[], publicChannels: PublicChannels): Promise<Watch[]> {
  const verdicts = new Map<string, Promise<boolean>>();
  const visible = (watch: Watch): Promise<boolean> => {
    const key = `${watch.channelId}\n${watch.projectName}`;
    let verdict = verdicts.get(key);
    if (!verdict) {
      verdict = (async () =>
        (await viewer.authorizer.allows(
          viewer.client,
          viewer.userId,
          { teamId: viewer.teamId, channelId: watch.channelId, projectName: watch.projectName },
          'viewer',
        )) && (await publicChannels.isPublic(viewer.client, watch.channelId)))();
      verdicts.set(key, verdict);
    }
    return verdict;
  };
  const shown = await Promise.all(watches.map(visible));
  return watches.filter((_, i) => shown[i]);
}
