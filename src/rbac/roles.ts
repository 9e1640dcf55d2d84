/** Roles, from least to most powerful. `none` exists only as a policy's default for strangers. */
export const ROLES = ['none', 'viewer', 'moderator', 'admin'] as const;
export type Role = (typeof ROLES)[number];
/** The roles a command can require. */
export type RequiredRole = Exclude<Role, 'none'>;

export function roleRank(role: Role): number {
  return ROLES.indexOf(role);
}

export function hasRole(actual: Role, required: Role): boolean {
  return roleRank(actual) >= roleRank(required);
}

export function higherRole(a: Role, b: Role): Role {
  return roleRank(a) >= roleRank(b) ? a : b;
}

/** "a viewer", "an admin", "no role" */
export function roleWithArticle(role: Role): string {
  if (role === 'none') return 'not granted any role';
  return (role === 'admin' ? 'an ' : 'a ') + role;
}
