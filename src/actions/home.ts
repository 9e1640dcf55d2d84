/** Publishes the App Home tab whenever someone opens it (and, through the poller, after changes). */
import type { App, webApi } from '@slack/bolt';
import { COMMANDS } from '../commands';
import { visibleSessions, visibleWatches } from '../rbac/visibility';
import type { Services } from '../services';
import { dashboardBlocks } from '../views/dashboard';
import { watchButtons } from '../views/dashboard-buttons';
import { homeView } from '../views/home';

/**
 * Builds and publishes one user's Home tab: role, live dashboard, commands, aliases, recent
 * sessions — only what the user may see (src/rbac/visibility.ts); nothing without a role.
 */
export async function publishHome(client: webApi.WebClient, services: Services, teamId: string, userId: string): Promise<void> {
  const [{ role }, aliases, recent, watches] = await Promise.all([
    services.authorizer.roleOf(client, userId, undefined),
    services.store.listAliases(teamId, undefined, 100),
    services.store.listRecentSessions(teamId, 50),
    services.store.listWatches({ teamId }),
  ]);
  const viewer = { client, authorizer: services.authorizer, userId, teamId, projects: services.projects.names() };
  const [visible, shownWatches] = await Promise.all([visibleSessions(viewer, { aliases, recent }), visibleWatches(viewer, watches, services.publicChannels)]);
  const now = services.clock();
  const dashboard = dashboardBlocks({ watches: shownWatches, now, buttons: (watch) => watchButtons(watch) });
  await client.views.publish({
    user_id: userId,
    view: homeView({ role, commands: COMMANDS, aliases: visible.aliases, recent: visible.recent, now, dashboard }),
  });
}

export function register(app: App, services: Services): void {
  app.event('app_home_opened', async ({ event, body, client }) => {
    if (event.tab !== 'home') return;
    const teamId = (body as { team_id?: string }).team_id ?? '';
    const logger = services.logger.child({ event: 'app_home_opened', user: event.user });
    try {
      services.homeViewers.opened(teamId, event.user, services.clock());
      await publishHome(client, services, teamId, event.user);
    } catch (error) {
      logger.error('could not publish the home tab', { error });
    }
  });
}
