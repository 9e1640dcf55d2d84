/** Publishes the App Home tab whenever someone opens it. */
import type { App } from '@slack/bolt';
import { COMMANDS } from '../commands';
import type { Services } from '../services';
import { homeView } from '../views/home';

export function register(app: App, services: Services): void {
  app.event('app_home_opened', async ({ event, body, client }) => {
    if (event.tab !== 'home') return;
    const teamId = (body as { team_id?: string }).team_id ?? '';
    const logger = services.logger.child({ event: 'app_home_opened', user: event.user });
    try {
      const [{ role }, aliases, recent] = await Promise.all([
        services.authorizer.roleOf(client, event.user, undefined),
        services.store.listAliases(teamId, undefined, 15),
        services.store.listRecentSessions(teamId, 10),
      ]);
      await client.views.publish({ user_id: event.user, view: homeView({ role, commands: COMMANDS, aliases, recent, now: services.clock() }) });
    } catch (error) {
      logger.error('could not publish the home tab', { error });
    }
  });
}
