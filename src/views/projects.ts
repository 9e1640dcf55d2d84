/**
 * `/video-admin` views: the project list, one project's card with its action buttons, the
 * confirmation cards, the in-channel notices, and every refusal and failure as a sentence.
 * None of them ever carries a secret: builders take `ProjectDetails` (whose `secret` is
 * non-enumerable) and read only the visible fields.
 */
import { z } from 'zod';
import {
  type ProjectDetails,
  type ProjectStatus,
  VideoApiError,
  VideoAuthError,
  VideoConnectionError,
  VideoNotFoundError,
  VideoRateLimitError,
  VideoTimeoutError,
  VideoValidationError,
} from '../api';
import { parseErrorBody } from '../api/errors';
import { code, escapeAndTruncate, escapeMrkdwn, userMention } from '../slack/mrkdwn';
import { type Button, type KnownBlock, type SlackMessage, LIMITS, actions, button, context, fields, header, section, stripMrkdwn, textMessage } from './blocks';
import { type Via, dialogFor } from './confirmation-policy';
import { ACTION } from './ids';
import { encodeValue } from './values';

/** What a project button carries: the API key, and the name for the texts. */
export const ProjectTargetSchema = z.object({ k: z.string().min(1), n: z.string().optional() });
export type ProjectTarget = z.output<typeof ProjectTargetSchema>;

/** What the "Create project" button carries: the name, if one was given. */
export const CreateTargetSchema = z.object({ n: z.string().optional() });
export type CreateTarget = z.output<typeof CreateTargetSchema>;

export function projectTarget(details: Pick<ProjectDetails, 'apiKey' | 'name'>): ProjectTarget {
  return { k: details.apiKey, ...(details.name ? { n: details.name } : {}) };
}

/** `*Support calls* (`46123456`)`, or just the key for a project without a name. */
export function projectText(target: { apiKey: string; name?: string }): string {
  return target.name ? `*${escapeAndTruncate(target.name, 100)}* (${code(target.apiKey)})` : code(target.apiKey);
}

function plainProjectText(target: { apiKey: string; name?: string }): string {
  return target.name ? `${target.name} (${target.apiKey})` : target.apiKey;
}

function targetProject(t: ProjectTarget): { apiKey: string; name?: string } {
  return { apiKey: t.k, ...(t.n ? { name: t.n } : {}) };
}

function when(at: number): string {
  const iso = new Date(at).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
  return `<!date^${Math.floor(at / 1000)}^{date_short_pretty} {time}|${iso}>`;
}

function statusText(status: string | undefined): string {
  switch (status) {
    case 'ACTIVE':
      return ':large_green_circle: active';
    case 'SUSPENDED':
      return ':double_vertical_bar: suspended';
    case undefined:
      return 'status unknown';
    default:
      return escapeAndTruncate(status.toLowerCase(), 40);
  }
}

/** "used by vidops as *prod*" for projects vidops itself signs with. */
function usedByText(usedBy: readonly string[]): string {
  return usedBy.length === 0 ? '' : `used by vidops as ${usedBy.map((n) => `*${escapeAndTruncate(n, 64)}*`).join(', ')}`;
}

const ONLY_YOU = 'Only you can see this.';

// ---------------------------------------------------------------------------------------------
// Reading

/** `/video-admin projects`: one line per project, newest first, packed into sections. */
export function projectListMessage(projects: readonly ProjectDetails[], usedBy: (apiKey: string) => readonly string[]): SlackMessage {
  if (projects.length === 0) {
    return { text: 'The account has no projects', blocks: [section('The account has no projects yet. `/video-admin create [name]` creates one.')] };
  }
  const sorted = [...projects].sort((a, b) => (b.createdAt ?? 0) - (a.createdAt ?? 0));
  const count = sorted.length === 1 ? '1 project' : `${sorted.length} projects`;
  const blocks: KnownBlock[] = [header(`Projects of the account (${sorted.length})`)];
  // Leaves room for the header, a "more" line and the closing context.
  const maxSections = LIMITS.messageBlocks - 3;
  const sections: string[] = [];
  let chunk = '';
  let inChunk = 0;
  let shown = 0;
  for (const project of sorted) {
    const name = project.name ? `*${escapeAndTruncate(project.name, 100)}*` : '_no name_';
    const created = project.createdAt !== undefined ? ` · created ${when(project.createdAt)}` : '';
    const used = usedByText(usedBy(project.apiKey));
    const line = `${name} · ${code(project.apiKey)} · ${statusText(project.status)}${created}${used ? ` · ${used}` : ''}`;
    if (chunk && chunk.length + line.length + 1 > LIMITS.sectionText) {
      if (sections.length + 1 >= maxSections) break;
      sections.push(chunk);
      shown += inChunk;
      chunk = '';
      inChunk = 0;
    }
    chunk += (chunk ? '\n' : '') + line;
    inChunk++;
  }
  if (chunk) {
    sections.push(chunk);
    shown += inChunk;
  }
  blocks.push(...sections.map((text) => section(text)));
  if (shown < sorted.length) blocks.push(section(`… and ${sorted.length - shown} more (the oldest); \`/video-admin project <key>\` shows any one of them.`));
  blocks.push(context(`${ONLY_YOU} \`/video-admin project <key>\` shows one project with its actions.`));
  return { text: `The account has ${count}`, blocks };
}

export interface CardOptions {
  /** Configured vidops projects using this key. */
  usedBy: readonly string[];
}

function suspendButton(details: ProjectDetails, usedBy: readonly string[], via: Via): Button {
  const warn =
    usedBy.length > 0
      ? ` vidops uses it as ${usedBy.map((n) => `*${escapeAndTruncate(n, 64)}*`).join(', ')}: those commands fail until it is active again.`
      : '';
  return button({
    actionId: ACTION.adminSuspendProject,
    text: 'Suspend',
    style: 'danger',
    value: encodeValue(projectTarget(details)),
    ...dialogFor('project-suspend', via, {
      title: 'Suspend this project?',
      text: `Project ${projectText(details)} and its sessions stop working until it is activated.${warn}`,
      confirm: 'Suspend',
      danger: true,
    }),
  });
}

function activateButton(details: ProjectDetails, via: Via): Button {
  return button({
    actionId: ACTION.adminActivateProject,
    text: 'Activate',
    style: 'primary',
    value: encodeValue(projectTarget(details)),
    ...dialogFor('project-activate', via, {
      title: 'Activate this project?',
      text: `Project ${projectText(details)} and its API key can be used again.`,
      confirm: 'Activate',
    }),
  });
}

function rotateButton(details: ProjectDetails, usedBy: readonly string[], via: Via): Button {
  const effect =
    usedBy.length > 0
      ? 'vidops switches to the new secret at once and keeps it encrypted; other apps using the old one stop working.'
      : 'Apps using the old secret stop working; vidops keeps the new one encrypted for an operator.';
  return button({
    actionId: ACTION.adminRotateSecret,
    text: 'Rotate secret',
    style: 'danger',
    value: encodeValue(projectTarget(details)),
    ...dialogFor('project-rotate-secret', via, {
      title: 'Rotate the secret?',
      text: `Project ${projectText(details)} gets a new API secret; client tokens made with the old one become invalid. ${effect}`,
      confirm: 'Rotate',
      danger: true,
    }),
  });
}

function deleteButton(details: ProjectDetails, usedBy: readonly string[], via: Via): Button {
  const warn = usedBy.length > 0 ? ' vidops uses it: remove it from the projects file too.' : '';
  return button({
    actionId: ACTION.adminDeleteProject,
    text: 'Delete',
    style: 'danger',
    value: encodeValue(projectTarget(details)),
    ...dialogFor('project-delete', via, {
      title: 'Delete this project?',
      text: `Project ${projectText(details)} is deleted for good: its API key, sessions and data cannot be used again.${warn}`,
      confirm: 'Delete',
      danger: true,
    }),
  });
}

const cancelButton = (): Button => button({ actionId: ACTION.cancel, text: 'Cancel' });

/** `/video-admin project <key>`: the details, and a button for each change (each confirmed). */
export function projectCard(details: ProjectDetails, options: CardOptions): SlackMessage {
  const items = [
    `*Name*\n${details.name ? escapeAndTruncate(details.name, 200) : '_no name_'}`,
    `*API key*\n${code(details.apiKey)}`,
    `*Status*\n${statusText(details.status)}`,
  ];
  if (typeof details.environment === 'string' && details.environment) items.push(`*Environment*\n${escapeAndTruncate(details.environment, 100)}`);
  if (details.createdAt !== undefined) items.push(`*Created*\n${when(details.createdAt)}`);
  if (details.updatedAt !== undefined) items.push(`*Updated*\n${when(details.updatedAt)}`);
  const used = usedByText(options.usedBy);
  const buttons = [
    details.status === 'SUSPENDED' ? activateButton(details, 'clicked') : suspendButton(details, options.usedBy, 'clicked'),
    rotateButton(details, options.usedBy, 'clicked'),
    deleteButton(details, options.usedBy, 'clicked'),
  ];
  const blocks: KnownBlock[] = [header(`Project ${details.name ?? details.apiKey}`), fields(items)];
  if (used) blocks.push(section(`:link: This project is ${used}.`));
  blocks.push(actions(buttons), context(`${ONLY_YOU} Every button but Activate asks for confirmation first.`));
  return { text: `Project ${plainProjectText(details)}: ${details.status ?? 'status unknown'}`, blocks };
}

// ---------------------------------------------------------------------------------------------
// Confirmation cards

function confirmCard(text: string, sentence: string, main: Button, note?: string): SlackMessage {
  const blocks: KnownBlock[] = [section(sentence)];
  if (note) blocks.push(section(note));
  blocks.push(actions([main, cancelButton()]), context(ONLY_YOU));
  return { text, blocks };
}

export function createConfirmCard(name: string | undefined, storedAs: string): SlackMessage {
  const what = name ? `a project named *${escapeAndTruncate(name, 100)}*` : 'a project without a name';
  return confirmCard(
    `Create ${name ? `project ${name}` : 'a project'}?`,
    `:sparkles: *Create a project?* vidops creates ${what} in the video account.`,
    button({
      actionId: ACTION.adminCreateProject,
      text: 'Create project',
      style: 'primary',
      value: encodeValue(name ? { n: name } : {}),
      ...dialogFor('project-create', 'typed', { title: 'Create a project?', text: `vidops creates ${what}.`, confirm: 'Create' }),
    }),
    `Its secret is never shown in Slack: vidops stores it encrypted (as ${code(storedAs)}) for an operator to retrieve.`,
  );
}

export function statusConfirmCard(details: ProjectDetails, status: ProjectStatus, usedBy: readonly string[]): SlackMessage {
  if (status === 'SUSPENDED') {
    const warn =
      usedBy.length > 0
        ? `\n:warning: vidops uses this project as ${usedBy.map((n) => `*${escapeAndTruncate(n, 64)}*`).join(', ')}; its commands fail while it is suspended.`
        : '';
    return confirmCard(
      `Suspend project ${plainProjectText(details)}?`,
      `:double_vertical_bar: *Suspend project ${projectText(details)}?* Its API key, and sessions created with it, cannot be used until it is activated again.${warn}`,
      suspendButton(details, usedBy, 'typed'),
    );
  }
  return confirmCard(
    `Activate project ${plainProjectText(details)}?`,
    `:arrow_forward: *Activate project ${projectText(details)}?* Its API key and sessions can be used again.`,
    activateButton(details, 'typed'),
  );
}

export function deleteConfirmCard(details: ProjectDetails, usedBy: readonly string[]): SlackMessage {
  const warn =
    usedBy.length > 0
      ? `\n:warning: vidops uses this project as ${usedBy.map((n) => `*${escapeAndTruncate(n, 64)}*`).join(', ')}; remove it from the projects file as well.`
      : '';
  return confirmCard(
    `Delete project ${plainProjectText(details)}?`,
    `:wastebasket: *Delete project ${projectText(details)}?* This cannot be undone: its API key, sessions and data go with it.${warn}`,
    deleteButton(details, usedBy, 'typed'),
  );
}

export function rotateConfirmCard(details: ProjectDetails, usedBy: readonly string[], storedAs: string): SlackMessage {
  const effect =
    usedBy.length > 0
      ? `vidops uses this project as ${usedBy.map((n) => `*${escapeAndTruncate(n, 64)}*`).join(', ')}: it switches to the new secret at once and stores it encrypted (as ${code(storedAs)}), so its commands keep working.`
      : `The new secret is never shown in Slack: vidops stores it encrypted (as ${code(storedAs)}) for an operator to retrieve.`;
  return confirmCard(
    `Rotate the secret of project ${plainProjectText(details)}?`,
    `:key: *Rotate the API secret of project ${projectText(details)}?* Client tokens made with the old secret become invalid, and every app using it must switch to the new one.`,
    rotateButton(details, usedBy, 'typed'),
    effect,
  );
}

// ---------------------------------------------------------------------------------------------
// After the change: the channel's notice and the asker's replaced card

function notice(icon: string, sentence: string, extra?: string): SlackMessage {
  const blocks: KnownBlock[] = [section(`${icon} ${sentence}`)];
  if (extra) blocks.push(context(extra));
  return { text: stripMrkdwn(sentence), blocks };
}

export function projectCreatedNotice(actor: string, details: ProjectDetails): SlackMessage {
  return notice(
    ':sparkles:',
    `${userMention(actor)} created project ${projectText(details)}.`,
    'It can take up to a minute before the new project can be used.',
  );
}

export function projectStatusNotice(actor: string, details: ProjectDetails, status: ProjectStatus, usedBy: readonly string[]): SlackMessage {
  const used = usedByText(usedBy);
  if (status === 'SUSPENDED') {
    return notice(
      ':double_vertical_bar:',
      `${userMention(actor)} suspended project ${projectText(details)}.`,
      `Its API key and sessions cannot be used until it is activated.${used ? ` It is ${used}.` : ''}`,
    );
  }
  return notice(':arrow_forward:', `${userMention(actor)} activated project ${projectText(details)}.`, used ? `It is ${used}.` : undefined);
}

export function projectDeletedNotice(actor: string, target: ProjectTarget, usedBy: readonly string[]): SlackMessage {
  const used = usedByText(usedBy);
  return notice(
    ':wastebasket:',
    `${userMention(actor)} deleted project ${projectText(targetProject(target))}.`,
    used ? `It was ${used}: remove it from the projects file.` : undefined,
  );
}

export function secretRotatedNotice(actor: string, target: ProjectTarget, applied: readonly string[]): SlackMessage {
  const extra =
    applied.length > 0
      ? `vidops switched to the new secret (it is ${usedByText(applied)}). Client tokens made with the old secret no longer work.`
      : 'Client tokens made with the old secret no longer work; apps using the project need the new secret.';
  return notice(':key:', `${userMention(actor)} rotated the API secret of project ${projectText(targetProject(target))}.`, extra);
}

/** What the projects-file entry of a new project looks like (the secret is a placeholder). */
function projectsFileEntry(apiKey: string, name: string | undefined): string {
  const suggested = (name ?? 'new-project')
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/^[^a-z0-9]+|-+$/g, '')
    .slice(0, 64);
  return JSON.stringify({ name: suggested || 'new-project', apiKey, apiSecret: '<the secret>', channels: [] });
}

/** Replaces the create card: the key, and how an operator gets the secret that was not shown. */
export function projectCreatedReply(details: ProjectDetails, storedAs: string): SlackMessage {
  const retrieve = `npx tsx src/secrets/cli.ts ${storedAs} --entry <name>`;
  return {
    text: `Project created: API key ${details.apiKey}`,
    blocks: [
      section(
        `:white_check_mark: Project ${projectText(details)} was created. Its API key is ${code(details.apiKey)}; it can take up to a minute before it can be used.`,
      ),
      section(
        `:lock: Its secret was *not shown* here. vidops stored it encrypted as ${code(storedAs)}. To let vidops use the project, an operator on the vidops host runs \`${escapeMrkdwn(retrieve)}\` and adds the printed entry to the projects file (VIDOPS_PROJECTS_FILE), like ${code(projectsFileEntry(details.apiKey, details.name))}, then restarts vidops.`,
      ),
    ],
  };
}

/** Replaces the rotate card. */
export function secretRotatedReply(target: ProjectTarget, applied: readonly string[], storedAs: string): SlackMessage {
  const project = projectText(targetProject(target));
  const where =
    applied.length > 0
      ? `vidops now signs with it (${usedByText(applied)}) and stored it encrypted as ${code(storedAs)}; it is used over the configured secret after restarts. Update the projects file with \`npx tsx src/secrets/cli.ts ${escapeMrkdwn(storedAs)}\` when convenient.`
      : `vidops stored it encrypted as ${code(storedAs)}; an operator on the vidops host prints it with \`npx tsx src/secrets/cli.ts ${escapeMrkdwn(storedAs)}\` for the apps that need it.`;
  return iconMessage(':white_check_mark:', `The API secret of project ${project} was rotated. The new secret was *not shown* here: ${where}`);
}

/** A one-section answer whose notification text leaves out the emoji. */
function iconMessage(icon: string, sentence: string): SlackMessage {
  return textMessage(`${icon} ${sentence}`, stripMrkdwn(sentence));
}

export function doneReply(sentence: string): SlackMessage {
  return iconMessage(':white_check_mark:', sentence);
}

// ---------------------------------------------------------------------------------------------
// Refusals and failures

/** Without account credentials nothing here can work; says which variables to set. */
export function accountMissingMessage(what: string): SlackMessage {
  return textMessage(
    `:warning: \`${escapeMrkdwn(what)}\` needs the video account's administrator credentials, and vidops has none. An operator sets VIDEO_ACCOUNT_API_KEY and VIDEO_ACCOUNT_API_SECRET (the account-level key and secret of a registered account administrator) and restarts vidops. Nothing was changed.`,
  );
}

/** `create` and `rotate-secret` receive a secret that must be stored, and there is no key. */
export function secretKeyMissingMessage(what: string): SlackMessage {
  return textMessage(
    `:warning: \`${escapeMrkdwn(what)}\` was refused: it gets a new project secret from the video service, which vidops never shows in Slack and must store encrypted — and no encryption key is configured. An operator sets VIDOPS_SECRET_KEY to 32 random bytes (e.g. the output of \`openssl rand -hex 32\`) and restarts vidops. Nothing was changed.`,
  );
}

export type AdminOperation = 'list' | 'get' | 'create' | 'suspend' | 'activate' | 'delete' | 'rotate-secret';

function serviceMessage(err: VideoApiError): string | undefined {
  const said = err.raw ? parseErrorBody(err.raw).message : undefined;
  return said ? escapeAndTruncate(said, 200) : undefined;
}

/** One sentence for a failed project-administration call, and whether anything changed. */
export function adminErrorText(err: unknown, operation: AdminOperation, apiKey?: string): string {
  const reading = operation === 'list' || operation === 'get';
  const unchanged = reading ? '' : ' Nothing was changed.';
  if (err instanceof VideoAuthError) {
    return `The video service refused the account credentials: VIDEO_ACCOUNT_API_KEY does not belong to a registered account administrator, or VIDEO_ACCOUNT_API_SECRET is wrong. An operator checks both in the account portal.${unchanged}`;
  }
  if (err instanceof VideoNotFoundError) {
    return `There is no project with API key ${code(apiKey ?? '?')} in this account; \`/video-admin projects\` lists them.${unchanged}`;
  }
  if (err instanceof VideoValidationError) return `${escapeAndTruncate(err.message, 500)} — nothing was sent.`;
  if (err instanceof VideoRateLimitError) {
    const wait = err.retryAfterMs ? ` in ${Math.max(1, Math.ceil(err.retryAfterMs / 1000))} s` : ' in a moment';
    return `The video service is limiting how fast we call it.${unchanged} Try again${wait}.`;
  }
  if (err instanceof VideoTimeoutError) {
    return reading
      ? 'The video service did not answer in time; try again in a moment.'
      : `The video service did not answer in time, so the change may or may not have been made; check with \`/video-admin ${apiKey ? `project ${escapeMrkdwn(apiKey)}` : 'projects'}\` before trying again.`;
  }
  if (err instanceof VideoConnectionError) return `The video service could not be reached.${unchanged} Try again in a moment.`;
  if (err instanceof VideoApiError) {
    const said = serviceMessage(err);
    if (err.status === 400) return `The video service rejected the request as invalid${said ? `: ${said}` : ''}.${unchanged}`;
    if (err.status !== undefined && err.status >= 500) {
      return `The video service did not answer properly (error ${err.status}).${unchanged} Try again in a moment.`;
    }
    return `The video service refused the request${said ? `: ${said}` : ''}.${unchanged}`;
  }
  return 'Something went wrong on our side; it was logged. Try again, or ask an admin to look at the vidops logs.';
}

export function adminErrorMessage(err: unknown, operation: AdminOperation, apiKey?: string): SlackMessage {
  return textMessage(`:warning: ${adminErrorText(err, operation, apiKey)}`);
}
