/**
 * Global shortcut "Mute everyone in a session": a modal with the session picker (the latest
 * session pre-selected) and the channel to tell; submitting it is the confirmation.
 */
import type { App, GlobalShortcut, SlackShortcutMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import { authorize } from '../interaction/authorize';
import { performChange } from '../interaction/change';
import { decodeSessionOption, encodeSessionOption } from '../interaction/session-ref';
import type { Services } from '../services';
import { code } from '../slack/mrkdwn';
import { openFormOrSay } from '../slack/slack-failure';
import { textMessage } from '../views/blocks';
import { ACTION, BLOCK, CALLBACK } from '../views/ids';
import { infoModal, muteEveryoneModal } from '../views/modals';
import { muteAllNotice } from '../views/notices';
import { recentOption } from '../views/session-options';
import { fromShortcut, fromViewAction } from './context';
import { showInModal } from './modal';

type ShortcutArgs = SlackShortcutMiddlewareArgs<GlobalShortcut> & { client: App['client'] };
type SubmitArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & { client: App['client'] };

const TITLE = 'Mute everyone';

type ViewState = ViewSubmitAction['view']['state']['values'];

export type MuteEveryoneForm =
  | { ok: true; session: { projectName: string; sessionId: string }; channelId?: string }
  | { ok: false; errors: Record<string, string> };

/** The session picked (of a configured project) and the channel to tell, or the field in error. */
export function readMuteEveryoneForm(values: ViewState, hasProject: (name: string) => boolean): MuteEveryoneForm {
  const picked = values[BLOCK.sessionPicker]?.[ACTION.sessionPicker]?.selected_option?.value;
  const session = picked ? decodeSessionOption(picked) : undefined;
  if (!session || !hasProject(session.projectName)) return { ok: false, errors: { [BLOCK.sessionPicker]: 'Pick a session from the list.' } };
  const channelId = values[BLOCK.noticeChannel]?.[ACTION.noticeChannel]?.selected_conversation ?? undefined;
  return { ok: true, session, ...(channelId ? { channelId } : {}) };
}

export function register(app: App, services: Services): void {
  app.shortcut<GlobalShortcut>(CALLBACK.muteEveryoneShortcut, async ({ ack, body, client }: ShortcutArgs) => {
    await ack();
    const ix = fromShortcut(services, client, body, CALLBACK.muteEveryoneShortcut);
    // Open within the trigger's 3 s: only a local store read comes first.
    const [latest] = await services.store.listRecentSessions(ix.teamId, 1).catch(() => []);
    const aliases = latest ? await services.store.listAliases(ix.teamId, undefined, 100).catch(() => []) : [];
    const aliasFor = latest ? aliases.find((a) => a.sessionId === latest.sessionId && a.projectName === latest.projectName)?.alias : undefined;
    const initial = latest && encodeSessionOption(latest.projectName, latest.sessionId).length <= 150 ? recentOption(latest, encodeSessionOption, aliasFor) : undefined;
    const opened = await openFormOrSay(ix, { trigger_id: body.trigger_id, view: muteEveryoneModal(initial) });
    const viewId = opened?.view?.id;
    if (!viewId) return;
    await authorize(ix, 'moderator', { what: TITLE, command: '/mute-all', target: 'shortcut' }, showInModal(ix, viewId, TITLE));
  });

  app.view<ViewSubmitAction>(CALLBACK.muteEveryoneModal, async ({ ack, body, view, client }: SubmitArgs) => {
    const form = readMuteEveryoneForm(view.state.values, (name) => services.projects.has(name));
    if (!form.ok) {
      await ack({ response_action: 'errors', errors: form.errors });
      return;
    }
    const { session, channelId } = form;
    await ack({ response_action: 'update', view: infoModal(TITLE, ':hourglass_flowing_sand: Muting everyone…') });
    const ix = fromViewAction(services, client, body, CALLBACK.muteEveryoneModal, channelId);
    const show = showInModal(ix, view.id, TITLE);
    const allowed = await authorize(ix, 'moderator', { what: TITLE, command: '/mute-all', target: `session ${session.sessionId}`, projectName: session.projectName }, show);
    if (!allowed) return;
    await services.store
      .touchRecentSession({ teamId: ix.teamId, projectName: session.projectName, sessionId: session.sessionId, usedBy: ix.userId, usedAt: services.clock() })
      .catch((error: unknown) => ix.logger.warn('could not record a recent session', { error }));
    const done = await performChange(
      ix,
      {
        command: '/mute-all',
        target: `session ${session.sessionId}`,
        projectName: session.projectName,
        errorContext: { operation: 'mute-all', sessionId: session.sessionId },
        call: (video) => video.moderation.muteAll(session.sessionId, { active: true }),
        notice: () => muteAllNotice(ix.userId, session, []),
      },
      { quiet: true },
    );
    await show(done.ok ? textMessage(`:white_check_mark: Everyone in ${code(session.sessionId)} is muted.`) : done.message);
  });
}
