/**
 * Who may do what: the caller's role from the policy (users, user groups, per-channel and
 * per-project grants) and VIDOPS_ADMINS, checked against the role each command declares.
 *
 * A role is held *somewhere*: the channel the person acts in (where the command was typed or the
 * button clicked) and the project the action touches. Global grants hold everywhere; a project's
 * grants hold wherever its project is touched; a channel's grants hold only for the projects that
 * channel may use (see `ChannelProjects`).
 */
import type { webApi } from '@slack/bolt';
import type { Logger } from '../log';
import type { UsergroupCache } from '../slack/usergroups';
import { type Policy, type RoleGrants, EMPTY_POLICY, policyAdmins } from './policy';
import { type Role, type RequiredRole, hasRole, higherRole, roleRank } from './roles';

export * from './roles';
export * from './policy';

export interface RoleCheck {
  role: Role;
  /** Groups whose members could not be looked up (their grants were not applied). */
  uncheckedGroups: string[];
}

const GRANTED: readonly RequiredRole[] = ['admin', 'moderator', 'viewer'];

/** Where an action happens: the acting channel (none for App Home, shortcuts) and the project it touches. */
export interface ActingScope {
  teamId: string;
  channelId?: string;
  /** The project touched; without it a channel's grants hold (for that channel's own projects). */
  projectName?: string;
}

/** The projects a channel may use: those bound to it, else the default project. */
export type ChannelProjects = (teamId: string, channelId: string) => Promise<readonly string[]>;

export class Authorizer {
  readonly policy: Policy;
  private readonly admins: ReadonlySet<string>;

  constructor(
    policy: Policy | undefined,
    admins: readonly string[],
    private readonly usergroups: UsergroupCache,
    private readonly logger?: Logger,
    private readonly channelProjects: ChannelProjects = async () => [],
  ) {
    this.policy = policy ?? EMPTY_POLICY;
    this.admins = new Set(admins);
  }

  /** The grants that hold in `scope`: global, the project's, and the acting channel's when it may use the project. */
  private async grantsIn(scope: ActingScope | undefined): Promise<RoleGrants[]> {
    const grants: RoleGrants[] = [this.policy.roles];
    const projectGrants = scope?.projectName !== undefined ? this.policy.projects[scope.projectName] : undefined;
    if (projectGrants) grants.push(projectGrants);
    const channelGrants = scope?.channelId ? this.policy.channels[scope.channelId] : undefined;
    if (channelGrants && scope?.channelId) {
      const usable = scope.projectName === undefined || (await this.channelProjects(scope.teamId, scope.channelId)).includes(scope.projectName);
      if (usable) grants.push(channelGrants);
    }
    return grants;
  }

  /** The highest role `userId` holds acting in `scope` (global grants only when no scope). */
  async roleOf(client: webApi.WebClient, userId: string, scope: ActingScope | undefined): Promise<RoleCheck> {
    if (this.admins.has(userId)) return { role: 'admin', uncheckedGroups: [] };
    const grants = await this.grantsIn(scope);

    let role: Role = this.policy.defaultRole;
    for (const candidate of GRANTED) {
      if (grants.some((g) => g[candidate]?.users.includes(userId))) {
        role = higherRole(role, candidate);
        break;
      }
    }
    const uncheckedGroups: string[] = [];
    for (const candidate of GRANTED) {
      if (roleRank(candidate) <= roleRank(role)) break;
      const groups = grants.flatMap((g) => g[candidate]?.groups ?? []);
      for (const group of groups) {
        try {
          const members = await this.usergroups.members(client, group);
          if (members.has(userId)) return { role: candidate, uncheckedGroups };
        } catch (err) {
          uncheckedGroups.push(group);
          this.logger?.warn('could not list the members of a user group; its grants were skipped', { group, error: (err as Error).message });
        }
      }
    }
    return { role, uncheckedGroups };
  }

  async allows(client: webApi.WebClient, userId: string, scope: ActingScope | undefined, required: RequiredRole): Promise<boolean> {
    return hasRole((await this.roleOf(client, userId, scope)).role, required);
  }

  /**
   * The projects `userId` may see (viewer or more) acting in `channelId`, or — with no channel,
   * as in App Home or a shortcut's form — through global and project grants only.
   */
  async viewableProjects(client: webApi.WebClient, userId: string, teamId: string, projects: readonly string[], channelId?: string): Promise<string[]> {
    const viewable: string[] = [];
    for (const projectName of projects) {
      if (await this.allows(client, userId, { teamId, projectName, ...(channelId ? { channelId } : {}) }, 'viewer')) viewable.push(projectName);
    }
    return viewable;
  }

  /** Forgets cached user-group members, so the next checks look them up again. */
  clearGroupCache(): void {
    this.usergroups.clear();
  }

  /** The people to ask for a role: policy admins and VIDOPS_ADMINS. */
  adminContacts(): string[] {
    return [...new Set([...this.admins, ...policyAdmins(this.policy)])];
  }
}
