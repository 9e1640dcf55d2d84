/** Options for the session pickers (external selects): aliases, then sessions used lately. */
import type { App, BlockSuggestion, SlackOptionsMiddlewareArgs } from '@slack/bolt';
import { encodeSessionOption } from '../interaction/session-ref';
import type { Services } from '../services';
import { ACTION } from '../views/ids';
import { sessionOptions } from '../views/session-options';

type OptionsArgs = SlackOptionsMiddlewareArgs<'block_suggestion'>;

export function register(app: App, services: Services): void {
  app.options<'block_suggestion'>(ACTION.sessionPicker, async ({ ack, body }: OptionsArgs) => {
    const suggestion = body as BlockSuggestion;
    const teamId = suggestion.team?.id ?? suggestion.user.team_id ?? '';
    try {
      const [aliases, recents] = await Promise.all([services.store.listAliases(teamId, undefined, 100), services.store.listRecentSessions(teamId, 50)]);
      const result = sessionOptions(aliases, recents, suggestion.value ?? '', encodeSessionOption);
      await ack(result.option_groups.length > 0 ? result : { options: [] });
    } catch (error) {
      services.logger.error('could not load session options', { error });
      await ack({ options: [] });
    }
  });
}
