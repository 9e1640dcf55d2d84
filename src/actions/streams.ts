/**
 * Buttons of the `/streams` card — "Mute" and "Edit layout classes" — and the layout modal's
 * submission, which sends every changed stream in one `setLayoutClasses` call.
 */
import type { App, BlockAction, ButtonAction, SlackActionMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import { VideoNotFoundError } from '../api';
import { authorize } from '../interaction/authorize';
import { performChange } from '../interaction/change';
import { muteOne, refreshPrivateConsole } from '../commands/people';
import { MUTE_VIA } from '../interaction/mute-state';
import type { Services } from '../services';
import { replyEphemeral } from '../slack/respond';
import { openFormOrSay } from '../slack/slack-failure';
import { textMessage, warning } from '../views/blocks';
import { describeError } from '../views/errors';
import { ACTION, BLOCK, CALLBACK } from '../views/ids';
import { infoModal } from '../views/modals';
import { layoutClassesNotice } from '../views/notices';
import { classListProblem, layoutClassesModal, parseClassList, parseLayoutMetadata } from '../views/streams';
import { StreamTargetSchema, decodeValue, targetSession } from '../views/values';
import { fromBlockAction, fromViewAction } from './context';
import { showInModal } from './modal';

type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & { client: App['client'] };
type SubmitArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & { client: App['client'] };

const STALE = 'This button’s card is from an older version of vidops; run `/streams` again.';

interface LayoutChange {
  id: string;
  layoutClassList: string[];
}

/** The streams whose classes were edited, read from the submitted view; or the fields in error. */
/** The streams whose classes the form changed, and (to undo it) their classes as the form showed them. */
export function readLayoutChanges(view: ViewSubmitAction['view']): { changes: LayoutChange[]; previous: LayoutChange[] } | { errors: Record<string, string> } {
  const changes: LayoutChange[] = [];
  const previous: LayoutChange[] = [];
  const errors: Record<string, string> = {};
  for (const block of view.blocks as { type: string; block_id?: string; element?: { initial_value?: string } }[]) {
    if (block.type !== 'input' || !block.block_id?.startsWith(BLOCK.layoutStreamPrefix)) continue;
    const streamId = block.block_id.slice(BLOCK.layoutStreamPrefix.length);
    const before = parseClassList(block.element?.initial_value);
    const after = parseClassList(view.state.values[block.block_id]?.[ACTION.layoutClassesInput]?.value);
    if (before.join(' ') === after.join(' ')) continue;
    const problem = classListProblem(after);
    if (problem) errors[block.block_id] = problem;
    else {
      changes.push({ id: streamId, layoutClassList: after });
      previous.push({ id: streamId, layoutClassList: before });
    }
  }
  return Object.keys(errors).length > 0 ? { errors } : { changes, previous };
}

export function register(app: App, services: Services): void {
  app.action<BlockAction<ButtonAction>>(ACTION.muteStream, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    const ix = fromBlockAction(services, client, body, respond, ACTION.muteStream);
    const target = decodeValue(StreamTargetSchema, action.value);
    if (!target) return replyEphemeral(ix, warning(STALE));
    const s = targetSession(target);
    const allowed = await authorize(ix, 'moderator', { what: '/mute', command: '/mute', target: `stream ${target.t}`, projectName: s.projectName });
    if (!allowed) return;
    const muted = await muteOne(ix, s, target.t, MUTE_VIA.button, target.n);
    if (muted && body.container?.is_ephemeral === true) await refreshPrivateConsole(ix, s);
  });

  app.action<BlockAction<ButtonAction>>(ACTION.editLayoutClasses, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    const ix = fromBlockAction(services, client, body, respond, ACTION.editLayoutClasses);
    const target = decodeValue(StreamTargetSchema, action.value);
    if (!target) return replyEphemeral(ix, warning(STALE));
    const s = targetSession(target);
    // The trigger expires after 3 s: open a loading modal first, fill it once the streams are known.
    const opened = await openFormOrSay(ix, { trigger_id: body.trigger_id, view: infoModal('Layout classes', ':hourglass_flowing_sand: Loading the streams…') });
    const viewId = opened?.view?.id;
    if (!viewId) return;
    const show = showInModal(ix, viewId, 'Layout classes');
    const allowed = await authorize(
      ix,
      'moderator',
      { what: 'Edit layout classes', command: 'layout classes', target: `session ${s.sessionId}`, projectName: s.projectName },
      show,
    );
    if (!allowed) return;
    try {
      const page = await services.projects.client(s.projectName).streams.list(s.sessionId);
      if (page.items.length === 0) {
        await show(warning('Nobody is publishing in this session any more.'));
        return;
      }
      await client.views.update({ view_id: viewId, view: layoutClassesModal(s, page.items, ix.channelId, target.t) });
    } catch (error) {
      ix.logger.warn('listing streams for the layout modal failed', { error });
      const text =
        error instanceof VideoNotFoundError
          ? 'Nobody is publishing in this session any more.'
          : describeError(error, { operation: 'list-streams', project: s.projectName, sessionId: s.sessionId });
      await show(warning(text));
    }
  });

  app.view<ViewSubmitAction>(CALLBACK.layoutClassesModal, async ({ ack, body, view, client }: SubmitArgs) => {
    const metadata = parseLayoutMetadata(view.private_metadata);
    if (!metadata) {
      await ack({
        response_action: 'update',
        view: infoModal('Layout classes', ':warning: This form is from an older version of vidops; open it again from `/streams`.'),
      });
      return;
    }
    const read = readLayoutChanges(view);
    if ('errors' in read) {
      await ack({ response_action: 'errors', errors: read.errors });
      return;
    }
    if (read.changes.length === 0) {
      await ack();
      return;
    }
    await ack({ response_action: 'update', view: infoModal('Layout classes', ':hourglass_flowing_sand: Saving…') });
    const ix = fromViewAction(services, client, body, CALLBACK.layoutClassesModal, metadata.c);
    const s = targetSession(metadata);
    const show = showInModal(ix, view.id, 'Layout classes');
    const allowed = await authorize(
      ix,
      'moderator',
      { what: 'Edit layout classes', command: 'layout classes', target: `session ${s.sessionId}`, projectName: s.projectName },
      show,
    );
    if (!allowed) return;
    const done = await performChange(
      ix,
      {
        command: 'layout classes',
        target: `${read.changes.map((c) => c.id).join(',')} in session ${s.sessionId}`.slice(0, 500),
        projectName: s.projectName,
        errorContext: { operation: 'set-layout-classes', sessionId: s.sessionId },
        call: (video) => video.streams.setLayoutClasses(s.sessionId, read.changes),
        notice: () => layoutClassesNotice(ix.userId, s, read.changes, read.previous),
      },
      { quiet: true },
    );
    const count = read.changes.length === 1 ? '1 stream' : `${read.changes.length} streams`;
    await show(done.ok ? textMessage(`:white_check_mark: Saved the layout classes of ${count}.`) : done.message);
  });
}
