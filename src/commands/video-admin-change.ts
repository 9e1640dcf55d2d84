/**
 * How a `/video-admin` change is made, for its buttons and for the one change typed without a
 * question (activate: reversible, see src/views/confirmation-policy.ts): the account-level call,
 * its audit, the channel's notice and the asker's answer.
 */
import type { ProjectStatus } from '../api';
import { recordAudit } from '../interaction/audit';
import type { Interaction } from '../interaction/interaction';
import { announce, replyEphemeral } from '../slack/respond';
import type { SlackMessage } from '../views/blocks';
import { auditErrorCode } from '../views/errors';
import { type AdminOperation, adminErrorMessage, doneReply, projectStatusNotice, projectText } from '../views/projects';

export interface AdminCall {
  operation: AdminOperation;
  /** As audited: `/video-admin <subcommand>`. */
  command: string;
  target: string;
  /** The vidops project using the key, if any (audit column). */
  projectName: string;
  apiKey?: string;
}

/** Makes the account-level call; on failure audits it and tells the asker, and returns undefined. */
export async function callService<T>(ix: Interaction, what: AdminCall, call: () => Promise<T>): Promise<{ value: T } | undefined> {
  try {
    return { value: await call() };
  } catch (error) {
    ix.logger.warn('project administration failed', { command: what.command, apiKey: what.apiKey, error });
    await recordAudit(ix, { command: what.command, target: what.target, projectName: what.projectName, outcome: 'error', error: auditErrorCode(error) });
    await replyEphemeral(ix, adminErrorMessage(error, what.operation, what.apiKey));
    return undefined;
  }
}

/** After a change: the audit record, the channel's notice, and the asker's card replaced (or, typed, answered). */
export async function finish(
  ix: Interaction,
  what: AdminCall,
  result: { notice: SlackMessage; reply: SlackMessage; auditError?: string },
  options: { replaceOriginal?: boolean } = {},
): Promise<void> {
  await recordAudit(ix, {
    command: what.command,
    target: what.target,
    projectName: what.projectName,
    outcome: result.auditError === undefined ? 'ok' : 'error',
    ...(result.auditError !== undefined ? { error: result.auditError } : {}),
  });
  await announce(ix, result.notice);
  await replyEphemeral(ix, result.reply, { replaceOriginal: options.replaceOriginal ?? true });
}

export function targetText(t: { apiKey: string; name?: string }): string {
  return `project ${t.apiKey}${t.name ? ` (${t.name})` : ''}`;
}

/** Suspends or activates the project with key `apiKey`; `typed` answers the command instead of replacing a card. */
export async function setProjectStatus(
  ix: Interaction,
  apiKey: string,
  status: ProjectStatus,
  what: AdminCall,
  options: { typed?: boolean } = {},
): Promise<void> {
  const done = await callService(ix, what, () => ix.services.projects.admin().setStatus(apiKey, status));
  if (!done) return;
  const details = done.value;
  const usedBy = ix.services.projects.namesForApiKey(details.apiKey);
  await finish(
    ix,
    what,
    {
      notice: projectStatusNotice(ix.userId, details, status, usedBy),
      reply: doneReply(`Project ${projectText(details)} is ${status === 'SUSPENDED' ? 'suspended' : 'active'}.`),
    },
    { replaceOriginal: options.typed !== true },
  );
}
