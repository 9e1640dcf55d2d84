/**
 * The upload-target form (`/record storage`): its redraw when the target type changes, and its
 * submission. Keys travel from the submitted form to the adapter only: problems name the field
 * without quoting what was typed, and nothing drawn after a submission carries a key.
 */
import type { App, BlockAction, SlackActionMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import { type UploadTarget, VideoValidationError, uploadTargetBody } from '../api';
import { authorize } from '../interaction/authorize';
import { setUploadTarget } from '../commands/record/storage';
import type { Services } from '../services';
import { RECORD_ACTION, RECORD_BLOCK, RECORD_CALLBACK } from '../views/ids';
import { infoModal } from '../views/modals';
import { type StorageForm, parseStorageMetadata, storageModal, storageSummaryText } from '../views/storage';
import { fromViewAction } from './context';
import { mainText, showInModal } from './modal';
import { errorsFromValidation, presentBlocks } from './record-start';

type ViewState = ViewSubmitAction['view']['state']['values'];
type SubmitArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & { client: App['client'] };
type RedrawArgs = SlackActionMiddlewareArgs<BlockAction> & { client: App['client'] };

const TITLE = 'Recording upload';

/** Which block shows a problem the adapter found in a field. */
const FIELD_BLOCKS: Readonly<Record<string, string>> = {
  type: RECORD_BLOCK.storageType,
  fallback: RECORD_BLOCK.fallback,
  'config.accessKey': RECORD_BLOCK.accessKey,
  'config.secretKey': RECORD_BLOCK.secretKey,
  'config.bucket': RECORD_BLOCK.bucket,
  'config.endpoint': RECORD_BLOCK.endpoint,
  'config.accountName': RECORD_BLOCK.accountName,
  'config.accountKey': RECORD_BLOCK.accountKey,
  'config.container': RECORD_BLOCK.container,
  'config.domain': RECORD_BLOCK.domain,
};

/** What the form says about where files go (never a key). */
export function readStorageForm(values: ViewState): StorageForm {
  const text = (block: string): string | undefined => {
    const value = values[block]?.[RECORD_ACTION.field]?.value?.trim();
    return value ? value : undefined;
  };
  const type = values[RECORD_BLOCK.storageType]?.[RECORD_ACTION.storageType]?.selected_option?.value === 'blobstore' ? 'blobstore' : 's3';
  const fallback = values[RECORD_BLOCK.fallback]?.[RECORD_ACTION.field]?.selected_option?.value === 'service' ? 'service' : 'none';
  const fields = {
    bucket: text(RECORD_BLOCK.bucket),
    endpoint: text(RECORD_BLOCK.endpoint),
    accountName: text(RECORD_BLOCK.accountName),
    container: text(RECORD_BLOCK.container),
    domain: text(RECORD_BLOCK.domain),
  };
  return { type, fallback, ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) };
}

export type CheckedStorage = { ok: true; target: UploadTarget } | { ok: false; errors: Record<string, string> };

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The target the form describes, or the fields in error; keys are trimmed, never quoted. */
export function checkStorageForm(values: ViewState, present: ReadonlySet<string>): CheckedStorage {
  const form = readStorageForm(values);
  const secret = (block: string): string | undefined => {
    const value = values[block]?.[RECORD_ACTION.field]?.value?.trim();
    return value ? value : undefined;
  };
  const errors: Record<string, string> = {};
  const need = (block: string, value: string | undefined, what: string): string => {
    if (value === undefined) errors[block] = `Give the ${what}.`;
    return value ?? '';
  };
  let target: UploadTarget;
  if (form.type === 's3') {
    const config = {
      accessKey: need(RECORD_BLOCK.accessKey, secret(RECORD_BLOCK.accessKey), 'access key'),
      secretKey: need(RECORD_BLOCK.secretKey, secret(RECORD_BLOCK.secretKey), 'secret key'),
      bucket: need(RECORD_BLOCK.bucket, form.bucket, 'bucket name'),
      ...(form.endpoint ? { endpoint: form.endpoint } : {}),
    };
    if (form.endpoint && !isHttpUrl(form.endpoint))
      errors[RECORD_BLOCK.endpoint] = 'Give the base URL with http:// or https://, e.g. https://s3.eu-central-1.example.com';
    target = { type: 's3', config, fallback: form.fallback };
  } else {
    const config = {
      accountName: need(RECORD_BLOCK.accountName, form.accountName, 'account name'),
      accountKey: need(RECORD_BLOCK.accountKey, secret(RECORD_BLOCK.accountKey), 'account key'),
      container: need(RECORD_BLOCK.container, form.container, 'container name'),
      ...(form.domain ? { domain: form.domain } : {}),
    };
    target = { type: 'blobstore', config, fallback: form.fallback };
  }
  for (const block of Object.keys(errors)) if (!present.has(block)) delete errors[block];
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  try {
    uploadTargetBody(target);
  } catch (error) {
    if (error instanceof VideoValidationError) return { ok: false, errors: errorsFromValidation(error, FIELD_BLOCKS, present, RECORD_BLOCK.storageType) };
    throw error;
  }
  return { ok: true, target };
}

export function register(app: App, services: Services): void {
  app.action<BlockAction>(RECORD_ACTION.storageType, async ({ ack, body, client }: RedrawArgs) => {
    await ack();
    const view = body.view;
    const metadata = parseStorageMetadata(view?.private_metadata);
    if (!view || !metadata) return;
    const form = readStorageForm(view.state.values as ViewState);
    try {
      // Only the type and fallback are set; Slack keeps what was typed in the other fields.
      await client.views.update({ view_id: view.id, hash: view.hash, view: storageModal({ type: form.type, fallback: form.fallback }, metadata) });
    } catch (error) {
      services.logger.info('could not redraw the upload-target form', { error });
    }
  });

  app.view<ViewSubmitAction>(RECORD_CALLBACK.storageModal, async ({ ack, body, view, client }: SubmitArgs) => {
    const metadata = parseStorageMetadata(view.private_metadata);
    if (!metadata || !services.projects.has(metadata.p)) {
      await ack({
        response_action: 'update',
        view: infoModal(TITLE, ':warning: This form is from an older version of vidops; open it again with `/record storage`.'),
      });
      return;
    }
    const checked = checkStorageForm(view.state.values, presentBlocks(view));
    if (!checked.ok) {
      await ack({ response_action: 'errors', errors: checked.errors });
      return;
    }
    await ack({ response_action: 'update', view: infoModal(TITLE, ':hourglass_flowing_sand: Saving the upload target…') });
    const ix = fromViewAction(services, client, body, RECORD_CALLBACK.storageModal, metadata.c);
    const show = showInModal(ix, view.id, TITLE);
    const allowed = await authorize(
      ix,
      'admin',
      { what: '/record storage', command: '/record storage', target: 'upload target', projectName: metadata.p },
      show,
    );
    if (!allowed) return;
    const done = await setUploadTarget(ix, metadata.p, checked.target, { channelId: metadata.c, quiet: true });
    if (!done.ok) {
      const form = readStorageForm(view.state.values);
      await client.views.update({ view_id: view.id, view: storageModal(form, metadata, `${mainText(done.message)} Type the keys again to retry.`) });
      return;
    }
    await client.views.update({
      view_id: view.id,
      view: infoModal(TITLE, `:white_check_mark: Saved: ${storageSummaryText(done.result)}. The keys are not shown.`),
    });
  });
}
