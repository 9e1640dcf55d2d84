/**
 * The projects a channel may use, for channel grants: the project bound to it with `/video use
 * --project`, and every project whose configured `channels` list it; the default project only
 * when none is bound. A channel grant never reaches a project outside this list.
 */
import type { VidopsStore } from '../store/types';
import type { ChannelProjects } from './index';

export interface ChannelProjectSources {
  store: Pick<VidopsStore, 'getChannelBinding'>;
  projects: { has(name: string): boolean; configuredAll(channelId: string): readonly string[]; readonly defaultName: string };
}

export function channelProjects({ store, projects }: ChannelProjectSources): ChannelProjects {
  return async (teamId, channelId) => {
    const bound = new Set(projects.configuredAll(channelId));
    const binding = await store.getChannelBinding(teamId, channelId);
    if (binding?.projectName && projects.has(binding.projectName)) bound.add(binding.projectName);
    return bound.size > 0 ? [...bound] : [projects.defaultName];
  };
}
