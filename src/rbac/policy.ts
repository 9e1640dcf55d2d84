/**
 * The access policy (VIDOPS_POLICY / VIDOPS_POLICY_FILE): who holds which role, globally and per
 * channel. Roles are ordered viewer < moderator < admin; holding a role grants the ones below it.
 *
 * ```json
 * {
 *   "defaultRole": "viewer",
 *   "roles": {
 *     "admin":     { "users": ["U012ABCDEF"], "groups": ["S0ADMINS"] },
 *     "moderator": { "groups": ["S0ONCALL"] }
 *   },
 *   "channels": {
 *     "C0STANDUP": { "moderator": { "groups": ["S0HOSTS"] } }
 *   },
 *   "projects": {
 *     "prod": { "moderator": { "users": ["U0RELEASE"] } }
 *   }
 * }
 * ```
 *
 * - `users` are Slack user IDs (U… or W…), `groups` Slack user-group IDs (S…); group members
 *   are looked up with `usergroups.users.list` and cached for a few minutes.
 * - `channels` grants roles only for actions taken in that channel (commands typed there, buttons
 *   clicked on its messages) on the projects that channel may use: those bound to it (`/video use
 *   --project`, a project's configured `channels`), else the default project. They add to the
 *   global roles, never lower them.
 * - `projects` grants roles on one project wherever its holder acts ("moderator of prod").
 * - `defaultRole` is what everyone else gets: `viewer` (default) or `none` (no access at all).
 * - Without a policy, everyone is a viewer; the user IDs in VIDOPS_ADMINS are admins in every
 *   case.
 */
import { z } from 'zod';

const userId = z.string().regex(/^[UW][A-Z0-9]+$/, { error: 'a Slack user ID looks like U012ABCDEF' });
const groupId = z.string().regex(/^S[A-Z0-9]+$/, { error: 'a Slack user-group ID looks like S012ABCDEF' });
const CHANNEL_ID = /^[CG][A-Z0-9]+$/;

export const GrantSchema = z
  .object({
    users: z.array(userId).default([]),
    groups: z.array(groupId).default([]),
  })
  .strict();

export const RoleGrantsSchema = z
  .object({
    viewer: GrantSchema.optional(),
    moderator: GrantSchema.optional(),
    admin: GrantSchema.optional(),
  })
  .strict();

export const PolicySchema = z
  .object({
    defaultRole: z.enum(['none', 'viewer']).default('viewer'),
    roles: RoleGrantsSchema.default({}),
    channels: z
      .record(z.string(), RoleGrantsSchema)
      .superRefine((channels, ctx) => {
        for (const key of Object.keys(channels)) {
          if (!CHANNEL_ID.test(key)) ctx.addIssue({ code: 'custom', path: [key], message: 'a Slack channel ID looks like C012ABCDEF' });
        }
      })
      .default({}),
    projects: z.record(z.string().min(1), RoleGrantsSchema).default({}),
  })
  .strict();

export type Grant = z.output<typeof GrantSchema>;
export type RoleGrants = z.output<typeof RoleGrantsSchema>;
export type Policy = z.output<typeof PolicySchema>;

export const EMPTY_POLICY: Policy = { defaultRole: 'viewer', roles: {}, channels: {}, projects: {} };

export type PolicyResult = { ok: true; policy: Policy } | { ok: false; problems: string[] };

/**
 * Reads the policy from what the configuration holds: nothing, JSON text, or an already parsed
 * value. Problems name the JSON path, e.g. `roles.admin.users[0]: a Slack user ID looks like …`.
 */
export function parsePolicy(source: unknown): PolicyResult {
  if (source === undefined || source === null || (typeof source === 'string' && source.trim() === '')) {
    return { ok: true, policy: EMPTY_POLICY };
  }
  let value = source;
  if (typeof source === 'string') {
    try {
      value = JSON.parse(source);
    } catch (err) {
      return { ok: false, problems: [`the policy is not valid JSON (${(err as Error).message})`] };
    }
  }
  const parsed = PolicySchema.safeParse(value);
  if (parsed.success) return { ok: true, policy: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) => `${formatPath(issue.path) || 'policy'}: ${issue.message}`),
  };
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += (out ? '.' : '') + String(key);
  }
  return out;
}

/** Every user ID the policy makes an admin directly (used to tell people whom to ask). */
export function policyAdmins(policy: Policy): string[] {
  return [...(policy.roles.admin?.users ?? [])];
}

/** Projects the policy grants roles on that are not configured (a typo would grant nothing). */
export function unknownPolicyProjects(policy: Policy, configured: readonly string[]): string[] {
  return Object.keys(policy.projects)
    .filter((name) => !configured.includes(name))
    .map((name) => `projects.${name}: there is no configured project named “${name}” (the projects are ${configured.join(', ')})`);
}
