/**
 * Global shortcut "Mute everyone in a session": a modal with the session picker (the latest
 * session of a project the person moderates pre-selected) and the channel to tell (Slack fills in
 * the one the shortcut was used from). Muting everyone is reversible, so submitting acts at once
 * and the notice carries Undo. Without a channel picked the notice goes to the session's channel
 * (where it is the default, else where its cards are), a direct message only when it has none.
 * Someone who moderates no project gets the denial instead of the form. The role is checked for
 * the session's project with no acting channel: the channel is where the notice goes, never
 * where authority comes from.
 */
import type { App, GlobalShortcut, SlackShortcutMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import { authorize } from '../interaction/authorize';
import type { Interaction } from '../interaction/interaction';
import { decodeSessionOption, encodeSessionOption, sessionChannel, withAlias } from '../interaction/session-ref';
import { visibleSessions } from '../rbac/visibility';
import type { Services } from '../services';
import { channelMention, code } from '../slack/mrkdwn';
import { openFormOrSay } from '../slack/slack-failure';
import { type SlackMessage, textMessage } from '../views/blocks';
import { ACTION, BLOCK, CALLBACK } from '../views/ids';
import { infoModal, muteEveryoneModal } from '../views/modals';
import type { SessionRef } from '../views/notices';
import { recentOption } from '../views/session-options';
import { muteEveryone } from '../commands/mute-all';
import { MUTE_VIA } from '../interaction/mute-state';
import type { AnnounceResult } from '../slack/respond';
import { fromShortcut, fromViewAction } from './context';
import { mainText, showInModal } from './modal';

type ShortcutArgs = SlackShortcutMiddlewareArgs<GlobalShortcut> & { client: App['client'] };
type SubmitArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & { client: App['client'] };

const TITLE = 'Mute everyone';

type ViewState = ViewSubmitAction['view']['state']['values'];

export type MuteEveryoneForm =
  { ok: true; session: { projectName: string; sessionId: string }; channelId?: string } | { ok: false; errors: Record<string, string> };

/** The session picked (of a configured project) and the channel to tell, or the field in error. */
export function readMuteEveryoneForm(values: ViewState, hasProject: (name: string) => boolean): MuteEveryoneForm {
  const picked = values[BLOCK.sessionPicker]?.[ACTION.sessionPicker]?.selected_option?.value;
  const session = picked ? decodeSessionOption(picked) : undefined;
  if (!session || !hasProject(session.projectName)) return { ok: false, errors: { [BLOCK.sessionPicker]: 'Pick a session from the list.' } };
  const channelId = values[BLOCK.noticeChannel]?.[ACTION.noticeChannel]?.selected_conversation ?? undefined;
  return { ok: true, session, ...(channelId ? { channelId } : {}) };
}

/** The projects where `userId` may mute everyone from a shortcut (global and project grants). */
async function moderatedProjects(services: Services, client: App['client'], userId: string, teamId: string): Promise<string[]> {
  const names: string[] = [];
  for (const projectName of services.projects.names()) {
    if (await services.authorizer.allows(client, userId, { teamId, projectName }, 'moderator')) names.push(projectName);
  }
  return names;
}

/** The denial for someone who moderates no project, audited like any other. */
async function denialWithoutProject(ix: Interaction): Promise<SlackMessage> {
  let denial: SlackMessage | undefined;
  await authorize(
    ix,
    'moderator',
    { what: TITLE, command: '/mute-all', target: 'shortcut', projectName: ix.services.projects.defaultName },
    async (message) => {
      denial = message;
    },
  );
  return denial ?? textMessage(`:no_entry: \`${TITLE}\` needs the moderator role.`);
}

/** The form's last word: done, and where the notice (with its Undo) went. */
function mutedMessage(s: SessionRef, announced: AnnounceResult): SlackMessage {
  const where = announced.delivered === 'channel' && announced.channel ? ` The notice, with *Undo*, is in ${channelMention(announced.channel)}.` : '';
  return textMessage(`:white_check_mark: Everyone in session ${code(s.alias ?? s.sessionId)} is muted.${where}`);
}

export function register(app: App, services: Services): void {
  app.shortcut<GlobalShortcut>(CALLBACK.muteEveryoneShortcut, async ({ ack, body, client }: ShortcutArgs) => {
    await ack();
    const ix = fromShortcut(services, client, body, CALLBACK.muteEveryoneShortcut);
    // A shortcut is taken nowhere in particular: only global and project grants hold. The role
    // is checked before the form opens, so someone without it sees no session.
    const viewer = { client, authorizer: services.authorizer, userId: ix.userId, teamId: ix.teamId, projects: services.projects.names() };
    const moderated = await moderatedProjects(services, ix.client, ix.userId, ix.teamId);
    if (moderated.length === 0) {
      const denial = await denialWithoutProject(ix);
      await openFormOrSay(ix, { trigger_id: body.trigger_id, view: infoModal(TITLE, mainText(denial)) });
      return;
    }
    const [latest] = (await services.store.listRecentSessions(ix.teamId, 20).catch(() => [])).filter((r) => moderated.includes(r.projectName));
    const aliases = latest
      ? (await visibleSessions(viewer, { aliases: await services.store.listAliases(ix.teamId, undefined, 100).catch(() => []), recent: [] })).aliases
      : [];
    const aliasFor = latest ? aliases.find((a) => a.sessionId === latest.sessionId && a.projectName === latest.projectName)?.alias : undefined;
    const initial =
      latest && encodeSessionOption(latest.projectName, latest.sessionId).length <= 150 ? recentOption(latest, encodeSessionOption, aliasFor) : undefined;
    await openFormOrSay(ix, { trigger_id: body.trigger_id, view: muteEveryoneModal(initial) });
  });

  app.view<ViewSubmitAction>(CALLBACK.muteEveryoneModal, async ({ ack, body, view, client }: SubmitArgs) => {
    const form = readMuteEveryoneForm(view.state.values, (name) => services.projects.has(name));
    if (!form.ok) {
      await ack({ response_action: 'errors', errors: form.errors });
      return;
    }
    const { session, channelId } = form;
    await ack({ response_action: 'update', view: infoModal(TITLE, ':hourglass_flowing_sand: Muting everyone…') });
    // The acting channel is none (a shortcut's form): the channel picked is only where to tell.
    const ix = fromViewAction(services, client, body, CALLBACK.muteEveryoneModal);
    const show = showInModal(ix, view.id, TITLE);
    const allowed = await authorize(
      ix,
      'moderator',
      { what: TITLE, command: '/mute-all', target: `session ${session.sessionId}`, projectName: session.projectName },
      show,
    );
    if (!allowed) return;
    await services.store
      .touchRecentSession({ teamId: ix.teamId, projectName: session.projectName, sessionId: session.sessionId, usedBy: ix.userId, usedAt: services.clock() })
      .catch((error: unknown) => ix.logger.warn('could not record a recent session', { error }));
    const s = await withAlias(services, ix.teamId, session);
    const tell = channelId ?? (await sessionChannel(services, ix.teamId, s.projectName, s.sessionId));
    const done = await muteEveryone(ix, s, [], { ...(tell ? { channelId: tell } : {}), quiet: true, via: MUTE_VIA.everyone });
    await show(done.ok ? mutedMessage(s, done.announced) : done.message);
  });
}
