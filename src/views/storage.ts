/**
 * The recording upload target: the modal that sets it (S3-compatible bucket or blob-store
 * container), the `/record storage clear` confirmation, and the notices. Keys and secrets are
 * typed into the modal and go to the video service only: no builder here takes a key, so none
 * can be shown back — not even on a redraw (Slack keeps what was typed when block and action IDs
 * stay the same; after a refusal, only where files go is filled in again).
 */
import { code, escapeAndTruncate, escapeMrkdwn, userMention } from '../slack/mrkdwn';
import { type KnownBlock, type ModalView, type SlackMessage, LIMITS, actions, button, context, option, plain, section } from './blocks';
import { fallbackText } from './blocks';
import { type StorageTarget } from './archive-values';
import { dialogFor } from './confirmation-policy';
import { ACTION, RECORD_ACTION, RECORD_BLOCK, RECORD_CALLBACK } from './ids';
import { encodeValue } from './values';

export const STORAGE_TYPES = ['s3', 'blobstore'] as const;
export type StorageType = (typeof STORAGE_TYPES)[number];
export const FALLBACKS = ['none', 'service'] as const;
export type Fallback = (typeof FALLBACKS)[number];

export interface StorageForm {
  type: StorageType;
  fallback: Fallback;
  /** Where files go (shown again after a refusal); there is deliberately no field for a key. */
  bucket?: string;
  endpoint?: string;
  accountName?: string;
  container?: string;
  domain?: string;
}

export const EMPTY_STORAGE_FORM: StorageForm = { type: 's3', fallback: 'none' };

/** What the modal carries in `private_metadata`: the project, and the channel to tell. */
export interface StorageModalMetadata {
  p: string;
  c?: string;
}

/** What may be shown of a target: where files go, never how to get in. */
export interface StorageSummary {
  type: StorageType;
  /** Bucket (s3) or container (blobstore). */
  place: string;
  /** Endpoint (s3) or domain (blobstore), if one was given. */
  host?: string;
  fallback: Fallback;
}

const TYPE_LABELS: Readonly<Record<StorageType, string>> = {
  s3: 'S3-compatible bucket',
  blobstore: 'Blob store container',
};

const FALLBACK_LABELS: Readonly<Record<Fallback, { text: string; description: string }>> = {
  none: { text: 'Nothing (default)', description: 'If an upload fails, the recording is not kept.' },
  service: { text: 'Keep it in the video service', description: 'If an upload fails, it stays downloadable here.' },
};

const typeOption = (t: StorageType) => option(TYPE_LABELS[t], t);
const fallbackOption = (f: Fallback) => option(FALLBACK_LABELS[f].text, f, FALLBACK_LABELS[f].description);

function field(blockId: string, label: string, opts: { optional?: boolean; hint?: string; placeholder?: string; initial?: string } = {}): KnownBlock {
  return {
    type: 'input',
    block_id: blockId,
    optional: opts.optional ?? false,
    label: plain(label, LIMITS.label),
    ...(opts.hint ? { hint: plain(opts.hint, LIMITS.hint) } : {}),
    element: {
      type: 'plain_text_input',
      action_id: RECORD_ACTION.field,
      ...(opts.initial ? { initial_value: opts.initial } : {}),
      ...(opts.placeholder ? { placeholder: plain(opts.placeholder, LIMITS.placeholder) } : {}),
    },
  };
}

const SECRET_HINT = 'Sent to the video service only; vidops never shows, logs or stores it.';

export function storageModal(form: StorageForm, metadata: StorageModalMetadata, problem?: string): ModalView {
  const blocks: KnownBlock[] = [];
  if (problem) blocks.push(section(problem, undefined, RECORD_BLOCK.problem));
  blocks.push(
    section(
      `Completed recordings of project *${escapeAndTruncate(metadata.p, 100)}* are uploaded as \`archive.mp4\` under \`/<api-key>/<recording-id>/\`. The credentials need upload-only permission. A new target replaces the current one.`,
    ),
  );
  blocks.push({
    type: 'input',
    block_id: RECORD_BLOCK.storageType,
    dispatch_action: true,
    label: plain('Where to upload'),
    element: { type: 'radio_buttons', action_id: RECORD_ACTION.storageType, options: STORAGE_TYPES.map(typeOption), initial_option: typeOption(form.type) },
  });
  if (form.type === 's3') {
    blocks.push(field(RECORD_BLOCK.accessKey, 'Access key', { hint: SECRET_HINT }));
    blocks.push(field(RECORD_BLOCK.secretKey, 'Secret key', { hint: SECRET_HINT }));
    blocks.push(field(RECORD_BLOCK.bucket, 'Bucket', { placeholder: 'meeting-recordings', initial: form.bucket }));
    blocks.push(
      field(RECORD_BLOCK.endpoint, 'Endpoint', {
        optional: true,
        initial: form.endpoint,
        placeholder: 'https://s3.eu-central-1.example.com',
        hint: 'For S3-compatible stores other than the standard one: the base URL with http:// or https://.',
      }),
    );
  } else {
    blocks.push(field(RECORD_BLOCK.accountName, 'Account name', { placeholder: 'acmestorage', initial: form.accountName }));
    blocks.push(field(RECORD_BLOCK.accountKey, 'Account key', { hint: SECRET_HINT }));
    blocks.push(field(RECORD_BLOCK.container, 'Container', { placeholder: 'meeting-recordings', initial: form.container }));
    blocks.push(
      field(RECORD_BLOCK.domain, 'Domain', {
        optional: true,
        initial: form.domain,
        placeholder: 'acmestorage.blob.example.net',
        hint: 'The container’s domain, if not the default one.',
      }),
    );
  }
  blocks.push({
    type: 'input',
    block_id: RECORD_BLOCK.fallback,
    label: plain('If an upload fails, keep'),
    element: { type: 'radio_buttons', action_id: RECORD_ACTION.field, options: FALLBACKS.map(fallbackOption), initial_option: fallbackOption(form.fallback) },
  });
  return {
    type: 'modal',
    callback_id: RECORD_CALLBACK.storageModal,
    title: plain('Recording upload', LIMITS.modalTitle),
    submit: plain('Save target', LIMITS.modalButton),
    close: plain('Cancel', LIMITS.modalButton),
    private_metadata: JSON.stringify(metadata),
    blocks,
  };
}

export function parseStorageMetadata(raw: string | undefined): StorageModalMetadata | undefined {
  if (!raw) return undefined;
  try {
    const value = JSON.parse(raw) as { p?: unknown; c?: unknown };
    if (typeof value.p !== 'string' || value.p === '') return undefined;
    return { p: value.p, ...(typeof value.c === 'string' ? { c: value.c } : {}) };
  } catch {
    return undefined;
  }
}

/** A URL as it may be shown: any user name or password in it dropped. */
export function displayHost(raw: string): string {
  try {
    const url = new URL(raw);
    url.username = '';
    url.password = '';
    return url.toString().replace(/\/$/, '');
  } catch {
    return raw.replace(/^[^/]*\/\/[^@/]*@/, '');
  }
}

/** One line: "S3-compatible bucket `b` at `https://…`; failed uploads: kept in the video service". */
export function storageSummaryText(s: StorageSummary): string {
  const host = s.host ? ` at ${code(displayHost(s.host))}` : '';
  const fallback = s.fallback === 'service' ? 'failed uploads stay downloadable in the video service' : 'failed uploads are not kept';
  return `${TYPE_LABELS[s.type]} ${code(s.place)}${host}; ${fallback}`;
}

export function storageSetNotice(actor: string, projectName: string, summary: StorageSummary): SlackMessage {
  const sentence = `${userMention(actor)} set where recordings of project *${escapeAndTruncate(projectName, 100)}* are uploaded: ${storageSummaryText(summary)}.`;
  return {
    text: fallbackText(sentence),
    blocks: [section(`:outbox_tray: ${sentence}`), context('Keys are never shown. Recordings completed from now on are uploaded there.')],
  };
}

export function storageClearedNotice(actor: string, projectName: string): SlackMessage {
  const sentence = `${userMention(actor)} removed the recording upload target of project *${escapeAndTruncate(projectName, 100)}*.`;
  return {
    text: fallbackText(sentence),
    blocks: [section(`:outbox_tray: ${sentence}`), context('Recordings completed from now on stay in the video service (downloadable for a limited time).')],
  };
}

export function storageClearConfirmCard(projectName: string): SlackMessage {
  const value: StorageTarget = { p: projectName };
  const project = `*${escapeAndTruncate(projectName, 100)}*`;
  return {
    text: fallbackText(`Remove the recording upload target of project ${escapeMrkdwn(projectName)}?`),
    blocks: [
      section(
        `:warning: *Remove the recording upload target of project ${project}?* Recordings completed afterwards stay in the video service instead; files already uploaded are not touched.`,
      ),
      actions([
        button({
          actionId: RECORD_ACTION.clearStorage,
          text: 'Remove target',
          style: 'danger',
          value: encodeValue(value),
          ...dialogFor('storage-remove', 'typed', {
            title: 'Remove the upload target?',
            text: `Project ${project} will stop uploading recordings.`,
            confirm: 'Remove',
            deny: 'Cancel',
            danger: true,
          }),
        }),
        button({ actionId: ACTION.cancel, text: 'Cancel' }),
      ]),
      context('Only you can see this.'),
    ],
  };
}
