/**
 * Options for the session pickers (external selects): aliases, then sessions used lately — of
 * the projects the asker may view where they act (src/rbac/visibility.ts); none without a role.
 */
import type { App, BlockSuggestion, SlackOptionsMiddlewareArgs } from '@slack/bolt';
import { encodeSessionOption } from '../interaction/session-ref';
import { visibleSessions } from '../rbac/visibility';
import type { Services } from '../services';
import { ACTION } from '../views/ids';
import { sessionOptions } from '../views/session-options';

type OptionsArgs = SlackOptionsMiddlewareArgs<'block_suggestion'> & { client: App['client'] };

const CHANNEL_ID = /^[CGD][A-Z0-9]+$/;

/**
 * Where the asker acts: the channel of the message holding the picker, or — in a form — the
 * channel its command was typed in (every form records it as `c` when opening). None for the
 * shortcut's form.
 */
export function actingChannelOf(suggestion: BlockSuggestion): string | undefined {
  const fromMessage = (suggestion as { channel?: { id?: unknown } }).channel?.id ?? (suggestion.container as { channel_id?: unknown } | undefined)?.channel_id;
  if (typeof fromMessage === 'string' && CHANNEL_ID.test(fromMessage)) return fromMessage;
  const metadata = (suggestion as { view?: { private_metadata?: unknown } }).view?.private_metadata;
  if (typeof metadata !== 'string' || !metadata.startsWith('{')) return undefined;
  try {
    const c = (JSON.parse(metadata) as { c?: unknown }).c;
    return typeof c === 'string' && CHANNEL_ID.test(c) ? c : undefined;
  } catch {
    return undefined;
  }
}

export function register(app: App, services: Services): void {
  app.options<'block_suggestion'>(ACTION.sessionPicker, async ({ ack, body, client }: OptionsArgs) => {
    const suggestion = body as BlockSuggestion;
    const teamId = suggestion.team?.id ?? suggestion.user.team_id ?? '';
    try {
      const [aliases, recent] = await Promise.all([services.store.listAliases(teamId, undefined, 100), services.store.listRecentSessions(teamId, 50)]);
      const viewer = { client, authorizer: services.authorizer, userId: suggestion.user.id, teamId, projects: services.projects.names() };
      const visible = await visibleSessions(viewer, { aliases, recent }, actingChannelOf(suggestion));
      const result = sessionOptions(visible.aliases, visible.recent, typeof suggestion.value === 'string' ? suggestion.value : '', encodeSessionOption);
      await ack(result.option_groups.length > 0 ? result : { options: [] });
    } catch (error) {
      services.logger.error('could not load session options', { error });
      await ack({ options: [] });
    }
  });
}
