/**
 * The `/record start` form: its redraws (output mode, layout type) and its submission. The
 * submission is checked with the same rules as the typed command, then by the adapter's own
 * validation (its `field` names the block in error); problems go back per field through
 * `response_action: 'errors'`. A refusal from the video service comes back in the form, filled
 * in as it was, with the sentence on top.
 */
import type { App, BlockAction, SlackActionMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import {
  LAYOUT_TYPES,
  type LayoutType,
  RESOLUTIONS,
  type Resolution,
  SCREENSHARE_LAYOUT_TYPES,
  type ScreenshareLayoutType,
  type StartArchiveOptions,
  VideoValidationError,
  startArchiveBody,
} from '../api';
import { authorize } from '../interaction/authorize';
import { archiveName, archiveTag, layoutFrom } from '../commands/record/args';
import { startRecording } from '../commands/record/start';
import { decodeSessionOption } from '../interaction/session-ref';
import type { Services } from '../services';
import { channelMention, code, escapeAndTruncate } from '../slack/mrkdwn';
import { type StartForm, parseStartMetadata, recordStartModal } from '../views/archive-modal';
import { ACTION, BLOCK, RECORD_ACTION, RECORD_BLOCK, RECORD_CALLBACK } from '../views/ids';
import { infoModal } from '../views/modals';
import { fromViewAction } from './context';
import { mainText, showInModal } from './modal';

type ViewState = ViewSubmitAction['view']['state']['values'];
type SubmitArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & { client: App['client'] };
type RedrawArgs = SlackActionMiddlewareArgs<BlockAction> & { client: App['client'] };

const TITLE = 'Start a recording';

function oneOf<T extends string>(value: string | null | undefined, allowed: readonly T[]): T | undefined {
  return value && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
}

/** What the form holds now (from a submission or a redraw's view state). */
export function readStartForm(values: ViewState): StartForm {
  const input = (block: string, action: string = RECORD_ACTION.field) => values[block]?.[action];
  const text = (block: string): string | undefined => {
    const value = input(block)?.value?.trim();
    return value ? value : undefined;
  };
  const picked = (block: string, action?: string) => input(block, action)?.selected_option?.value ?? undefined;
  const session = input(BLOCK.sessionPicker, ACTION.sessionPicker)?.selected_option ?? undefined;
  const media = input(RECORD_BLOCK.media)?.selected_options;
  const chosen = media ? media.map((o) => o.value) : ['audio', 'video'];
  const form: StartForm = {
    outputMode: picked(RECORD_BLOCK.outputMode, RECORD_ACTION.outputMode) === 'individual' ? 'individual' : 'composed',
    streamMode: picked(RECORD_BLOCK.streamMode) === 'manual' ? 'manual' : 'auto',
    audio: chosen.includes('audio'),
    video: chosen.includes('video'),
  };
  const layoutType = oneOf<LayoutType>(picked(RECORD_BLOCK.layoutType, RECORD_ACTION.layoutType), LAYOUT_TYPES);
  const resolution = oneOf<Resolution>(picked(RECORD_BLOCK.resolution), RESOLUTIONS);
  const screenshare = oneOf<ScreenshareLayoutType>(picked(RECORD_BLOCK.screenshare), SCREENSHARE_LAYOUT_TYPES);
  const name = text(RECORD_BLOCK.name);
  const stylesheet = text(RECORD_BLOCK.stylesheet);
  const tag = text(RECORD_BLOCK.tag);
  return {
    ...form,
    ...(session ? { session: { text: { type: 'plain_text', text: session.text.text, emoji: true }, value: session.value } } : {}),
    ...(name ? { name } : {}),
    ...(resolution ? { resolution } : {}),
    ...(layoutType ? { layoutType } : {}),
    ...(screenshare ? { screenshare } : {}),
    ...(stylesheet ? { stylesheet } : {}),
    ...(tag ? { tag } : {}),
  };
}

/** Which block shows a problem the adapter found in a field. */
const FIELD_BLOCKS: Readonly<Record<string, string>> = {
  sessionId: BLOCK.sessionPicker,
  name: RECORD_BLOCK.name,
  outputMode: RECORD_BLOCK.outputMode,
  resolution: RECORD_BLOCK.resolution,
  layout: RECORD_BLOCK.layoutType,
  'layout.type': RECORD_BLOCK.layoutType,
  'layout.stylesheet': RECORD_BLOCK.stylesheet,
  'layout.screenshareType': RECORD_BLOCK.screenshare,
  hasAudio: RECORD_BLOCK.media,
  hasVideo: RECORD_BLOCK.media,
  multiArchiveTag: RECORD_BLOCK.tag,
  streamMode: RECORD_BLOCK.streamMode,
};

/** The adapter's message without its field prefix, developer example or echoed value. */
export function fieldProblem(error: VideoValidationError): string {
  const text = error.message
    .replace(new RegExp(`^${error.field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `), '')
    .replace(/\. Example: .*$/s, '')
    .replace(/\s*\(got [^)]*\)/g, '');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`.replace(/\.\.$/, '.');
}

/** Problems keyed by a block of the submitted view (Slack rejects errors for absent blocks). */
export function errorsFromValidation(
  error: VideoValidationError,
  fieldBlocks: Readonly<Record<string, string>>,
  present: ReadonlySet<string>,
  fallback: string,
): Record<string, string> {
  const block = fieldBlocks[error.field];
  return { [block && present.has(block) ? block : fallback]: fieldProblem(error) };
}

export type CheckedStart =
  | { ok: true; session: { projectName: string; sessionId: string }; options: Omit<StartArchiveOptions, 'sessionId'> }
  | { ok: false; errors: Record<string, string> };

/** The typed command's rules, per field; then the adapter's validation of the request. */
export function checkStartForm(form: StartForm, present: ReadonlySet<string>, hasProject: (name: string) => boolean): CheckedStart {
  const errors: Record<string, string> = {};
  const session = form.session?.value ? decodeSessionOption(form.session.value) : undefined;
  if (!session || !hasProject(session.projectName)) errors[BLOCK.sessionPicker] = 'Pick a session from the list.';
  if (form.name !== undefined) {
    const name = archiveName.safeParse(form.name);
    if (!name.success) errors[RECORD_BLOCK.name] = capitalize(name.error.issues[0]!.message);
  }
  if (form.tag !== undefined) {
    const tag = archiveTag.safeParse(form.tag);
    if (!tag.success) errors[RECORD_BLOCK.tag] = capitalize(tag.error.issues[0]!.message);
  }
  if (!form.audio && !form.video) errors[RECORD_BLOCK.media] = 'Record audio, video or both.';
  const composed = form.outputMode === 'composed';
  if (!composed) {
    if (form.resolution && present.has(RECORD_BLOCK.resolution))
      errors[RECORD_BLOCK.resolution] = 'Only a composed recording has a resolution: clear it, or choose Composed.';
    if (form.layoutType && present.has(RECORD_BLOCK.layoutType))
      errors[RECORD_BLOCK.layoutType] = 'Only a composed recording has a layout: clear it, or choose Composed.';
  } else {
    const type = form.layoutType ?? 'bestFit';
    if (form.screenshare && type !== 'bestFit')
      errors[RECORD_BLOCK.screenshare] = 'A screen-share layout goes with best fit only: clear it, or choose Best fit.';
    if (form.stylesheet && type !== 'custom')
      errors[RECORD_BLOCK.stylesheet] = 'Only a custom layout uses a stylesheet: clear it, or choose Custom stylesheet.';
    if (type === 'custom' && !form.stylesheet) {
      if (present.has(RECORD_BLOCK.stylesheet)) errors[RECORD_BLOCK.stylesheet] = 'A custom layout needs its stylesheet.';
      else errors[RECORD_BLOCK.layoutType] = 'A custom layout needs a stylesheet: choose it again to show the stylesheet field.';
    }
  }
  if (Object.keys(errors).length > 0 || !session) return { ok: false, errors };

  const layout = composed ? layoutFrom({ layout: form.layoutType, screenshare: form.screenshare, stylesheet: form.stylesheet }) : undefined;
  const options: Omit<StartArchiveOptions, 'sessionId'> = {
    ...(form.name ? { name: form.name } : {}),
    ...(composed ? {} : { outputMode: 'individual' as const }),
    ...(composed && form.resolution ? { resolution: form.resolution } : {}),
    ...(layout ? { layout } : {}),
    ...(form.streamMode === 'manual' ? { streamMode: 'manual' as const } : {}),
    ...(form.audio && form.video ? {} : { hasAudio: form.audio, hasVideo: form.video }),
    ...(form.tag ? { multiArchiveTag: form.tag } : {}),
  };
  try {
    startArchiveBody({ sessionId: session.sessionId, ...options });
  } catch (error) {
    if (error instanceof VideoValidationError) return { ok: false, errors: errorsFromValidation(error, FIELD_BLOCKS, present, BLOCK.sessionPicker) };
    throw error;
  }
  return { ok: true, session, options };
}

export function presentBlocks(view: { blocks: readonly unknown[] }): Set<string> {
  return new Set(view.blocks.map((b) => (b as { block_id?: string }).block_id).filter((id): id is string => typeof id === 'string'));
}

export function register(app: App, services: Services): void {
  // Output mode and layout type change which fields make sense: redraw the form.
  const redraw = async ({ ack, body, client }: RedrawArgs): Promise<void> => {
    await ack();
    const view = body.view;
    if (!view) return;
    const form = readStartForm(view.state.values as ViewState);
    try {
      await client.views.update({ view_id: view.id, hash: view.hash, view: recordStartModal(form, parseStartMetadata(view.private_metadata)) });
    } catch (error) {
      // A hash conflict means a newer redraw won; anything else leaves the form as it was.
      services.logger.info('could not redraw the start form', { error });
    }
  };
  app.action<BlockAction>(RECORD_ACTION.outputMode, redraw);
  app.action<BlockAction>(RECORD_ACTION.layoutType, redraw);

  app.view<ViewSubmitAction>(RECORD_CALLBACK.startModal, async ({ ack, body, view, client }: SubmitArgs) => {
    const metadata = parseStartMetadata(view.private_metadata);
    const form = readStartForm(view.state.values);
    const checked = checkStartForm(form, presentBlocks(view), (name) => services.projects.has(name));
    if (!checked.ok) {
      await ack({ response_action: 'errors', errors: checked.errors });
      return;
    }
    await ack({ response_action: 'update', view: infoModal(TITLE, ':hourglass_flowing_sand: Starting the recording…') });
    const ix = fromViewAction(services, client, body, RECORD_CALLBACK.startModal, metadata.c);
    const show = showInModal(ix, view.id, TITLE);
    const { projectName, sessionId } = checked.session;
    const allowed = await authorize(ix, 'moderator', { what: '/record start', command: '/record start', target: `session ${sessionId}`, projectName }, show);
    if (!allowed) return;
    await services.store
      .touchRecentSession({ teamId: ix.teamId, projectName, sessionId, usedBy: ix.userId, usedAt: services.clock() })
      .catch((error: unknown) => ix.logger.warn('could not record a recent session', { error }));
    const alias = (await services.store.listAliases(ix.teamId, undefined, 100).catch(() => [])).find(
      (a) => a.projectName === projectName && a.sessionId === sessionId,
    )?.alias;
    const done = await startRecording(ix, { projectName, sessionId, ...(alias ? { alias } : {}) }, checked.options, { channelId: metadata.c, quiet: true });
    if (!done.ok) {
      await client.views.update({ view_id: view.id, view: recordStartModal(form, metadata, mainText(done.message)) });
      return;
    }
    const archive = done.result;
    const what = `${archive.name ? `*${escapeAndTruncate(archive.name, 100)}* ` : ''}(${code(archive.id)})`;
    const where =
      done.announced.delivered === 'channel' && done.announced.channel
        ? `Its card is in ${channelMention(done.announced.channel)}; it follows the recording from there.`
        : 'Its card was sent to you only (I cannot post in that channel).';
    await client.views.update({
      view_id: view.id,
      view: infoModal(TITLE, `:red_circle: Recording ${what} of session ${code(alias ?? sessionId)} has started. ${where}`),
    });
  });
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
