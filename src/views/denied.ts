/** The ephemeral answer when someone lacks the role a command needs. */
import { type Role, roleWithArticle } from '../rbac/roles';
import { userMention } from '../slack/mrkdwn';
import { type SlackMessage, textMessage } from './blocks';

export interface Denial {
  /** What was attempted, e.g. `/mute-all` or `Mute (button)`. */
  what: string;
  required: Role;
  actual: Role;
  /** People who can grant roles. */
  admins: readonly string[];
  /** User groups that could not be checked just now. */
  uncheckedGroups?: readonly string[];
}

export function deniedMessage(denial: Denial): SlackMessage {
  const ask =
    denial.admins.length > 0
      ? `Ask an admin (${denial.admins.slice(0, 5).map(userMention).join(', ')}) to give you the ${denial.required} role in the vidops policy.`
      : `Ask an admin to give you the ${denial.required} role in the vidops policy (VIDOPS_POLICY).`;
  const unchecked =
    denial.uncheckedGroups && denial.uncheckedGroups.length > 0
      ? ' Some of your user groups could not be checked just now; if one of them grants the role, try again in a minute.'
      : '';
  return textMessage(`:no_entry: \`${denial.what}\` needs the ${denial.required} role; you are ${roleWithArticle(denial.actual)}. ${ask}${unchecked}`);
}
