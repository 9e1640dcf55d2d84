/**
 * The role check every command and button goes through; denials are explained and audited.
 *
 * A role is checked where the person acts (`ix.channelId`: where the command was typed or the
 * button clicked) for the project the action touches. A command's first check is made before
 * its session is resolved (for `--project` when given, else the named alias's project, else the
 * channel's project); the gate it
 * then carries (`projectGate`) checks again for every project the command resolves or changes.
 */
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
  /** The project touched, when known; otherwise the acting channel's project. */
  projectName?: string;
}

/**
 * True when the caller holds `required` where they act, for the project touched. Otherwise the
 * denial is audited and shown — as an ephemeral reply by default, or through `show` (e.g. into a
 * modal).
 */
export async function authorize(
  ix: Interaction,
  required: RequiredRole,
  attempt: Attempt,
  show: (message: SlackMessage) => Promise<unknown> = (message) => replyEphemeral(ix, message),
): Promise<boolean> {
  let projectName = attempt.projectName;
  if (projectName === undefined) {
    const project = await resolveProject(ix.services, { teamId: ix.teamId, channelId: ix.channelId, userId: ix.userId });
    projectName = project.ok ? project.value.projectName : ix.services.projects.defaultName;
  }
  const scope = { teamId: ix.teamId, projectName, ...(ix.channelId ? { channelId: ix.channelId } : {}) };
  const { role, uncheckedGroups } = await ix.services.authorizer.roleOf(ix.client, ix.userId, scope);
  if (hasRole(role, required)) return true;
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

/** Thrown by a gate after it has shown and audited a denial; the command's dispatcher ends quietly on it. */
export class Denied extends Error {
  constructor(readonly projectName: string) {
    super(`denied on project ${projectName}`);
    this.name = 'Denied';
  }
}

/** Checks the role again for a project an action is about to resolve or change. */
export type ProjectGate = (projectName: string) => Promise<void>;

/** The gate a command carries once its first check passed: the same role, for each project it touches. */
export function projectGate(ix: Interaction, required: RequiredRole, attempt: Omit<Attempt, 'projectName'>): ProjectGate {
  return async (projectName) => {
    if (!(await authorize(ix, required, { ...attempt, projectName }))) throw new Denied(projectName);
  };
}
