/**
 * Who may do what: the caller's role from the policy (users, user groups, per-channel grants)
 * and VIDOPS_ADMINS, checked against the role each command declares.
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

export class Authorizer {
  readonly policy: Policy;
  private readonly admins: ReadonlySet<string>;

  constructor(
    policy: Policy | undefined,
    admins: readonly string[],
    private readonly usergroups: UsergroupCache,
    private readonly logger?: Logger,
  ) {
    this.policy = policy ?? EMPTY_POLICY;
    this.admins = new Set(admins);
  }

  /** The highest role `userId` holds in `channelId`. */
  async roleOf(client: webApi.WebClient, userId: string, channelId: string | undefined): Promise<RoleCheck> {
    if (this.admins.has(userId)) return { role: 'admin', uncheckedGroups: [] };
    const grants: RoleGrants[] = [this.policy.roles];
    const channelGrants = channelId ? this.policy.channels[channelId] : undefined;
    if (channelGrants) grants.push(channelGrants);

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

  async allows(client: webApi.WebClient, userId: string, channelId: string | undefined, required: RequiredRole): Promise<boolean> {
    return hasRole((await this.roleOf(client, userId, channelId)).role, required);
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
