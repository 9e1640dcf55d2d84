/** The `Interaction` of a button click, shortcut or modal submission. */
import type { App, BlockAction, RespondFn as BoltRespondFn, SlackShortcut, SlackViewAction } from '@slack/bolt';
import type { Interaction } from '../interaction/interaction';
import type { Services } from '../services';

type Client = App['client'];

function teamOf(body: { team?: { id: string } | null; user: { team_id?: string } }, fallback: string): string {
  return body.team?.id ?? body.user.team_id ?? fallback;
}

export function fromBlockAction(services: Services, client: Client, body: BlockAction, respond: BoltRespondFn, what: string): Interaction {
  const channelId = body.channel?.id ?? (typeof body.container?.channel_id === 'string' ? body.container.channel_id : undefined);
  return {
    services,
    client,
    logger: services.logger.child({ action: what, user: body.user.id, channel: channelId }),
    teamId: teamOf(body, ''),
    userId: body.user.id,
    channelId,
    triggerId: body.trigger_id,
    respond: body.response_url ? respond : undefined,
  };
}

export function fromShortcut(services: Services, client: Client, body: SlackShortcut, what: string): Interaction {
  return {
    services,
    client,
    logger: services.logger.child({ shortcut: what, user: body.user.id }),
    teamId: body.team?.id ?? '',
    userId: body.user.id,
    triggerId: body.trigger_id,
  };
}

export function fromViewAction(services: Services, client: Client, body: SlackViewAction, what: string, channelId?: string): Interaction {
  return {
    services,
    client,
    logger: services.logger.child({ view: what, user: body.user.id }),
    teamId: body.team?.id ?? body.user.team_id ?? '',
    userId: body.user.id,
    channelId,
  };
}
