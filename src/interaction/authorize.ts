/** The role check every command and button goes through; denials are explained and audited. */
import { type RequiredRole, hasRole } from '../rbac/roles';
import { replyEphemeral } from '../slack/respond';
import type { SlackMessage } from '../views/blocks';
import { deniedMessage } from '../views/denied';
import { recordAudit } from './audit';
import type { Interaction } from './interaction';
import { resolveProject } from './session-ref';

export interface Attempt {
  /** As the denial names it, e.g. `/mute-all`. */
  what: string;
  /** As the audit records it. */
  command: string;
  target: string;
  /** When known; otherwise the channel's project is recorded. */
  projectName?: string;
}

/**
 * True when the caller holds `required`. Otherwise the denial is audited and shown — as an
 * ephemeral reply by default, or through `show` (e.g. into a modal).
 */
export async function authorize(
  ix: Interaction,
  required: RequiredRole,
  attempt: Attempt,
  show: (message: SlackMessage) => Promise<unknown> = (message) => replyEphemeral(ix, message),
): Promise<boolean> {
  const { role, uncheckedGroups } = await ix.services.authorizer.roleOf(ix.client, ix.userId, ix.channelId);
  if (hasRole(role, required)) return true;
  let projectName = attempt.projectName;
  if (projectName === undefined) {
    const project = await resolveProject(ix.services, { teamId: ix.teamId, channelId: ix.channelId, userId: ix.userId });
    projectName = project.ok ? project.value.projectName : '';
  }
  await recordAudit(ix, {
    command: attempt.command,
    target: attempt.target,
    projectName,
    outcome: 'denied',
    error: `needs ${required}, has ${role}`,
  });
  await show(deniedMessage({ what: attempt.what, required, actual: role, admins: ix.services.authorizer.adminContacts(), uncheckedGroups }));
  return false;
}
