/** Options of the session pickers: aliases first, then sessions used lately, filtered by what was typed. */
import type { RecentSession, SessionAlias } from '../store/types';
import { LIMITS, type PlainTextOption, option } from './blocks';

export interface OptionGroups {
  option_groups: { label: { type: 'plain_text'; text: string }; options: PlainTextOption[] }[];
}

export type EncodeOption = (projectName: string, sessionId: string) => string;

function shortId(sessionId: string): string {
  return sessionId.length > 24 ? `${sessionId.slice(0, 10)}…${sessionId.slice(-10)}` : sessionId;
}

export function aliasOption(alias: SessionAlias, encode: EncodeOption): PlainTextOption {
  return option(`${alias.alias} (${alias.projectName})`, encode(alias.projectName, alias.sessionId), shortId(alias.sessionId));
}

export function recentOption(recent: RecentSession, encode: EncodeOption, aliasFor?: string): PlainTextOption {
  const label = aliasFor ? `${aliasFor} (${recent.projectName})` : `${shortId(recent.sessionId)} (${recent.projectName})`;
  return option(label, encode(recent.projectName, recent.sessionId), aliasFor ? shortId(recent.sessionId) : 'used lately');
}

export function sessionOptions(aliases: readonly SessionAlias[], recents: readonly RecentSession[], query: string, encode: EncodeOption): OptionGroups {
  const q = query.trim().toLowerCase();
  const fits = (value: string) => value.length <= LIMITS.optionValue;
  const aliasByKey = new Map(aliases.map((a) => [`${a.projectName}\n${a.sessionId}`, a.alias]));
  const aliasOptions = aliases
    .filter((a) => !q || a.alias.includes(q) || a.sessionId.toLowerCase().includes(q))
    .filter((a) => fits(encode(a.projectName, a.sessionId)))
    .slice(0, 50)
    .map((a) => aliasOption(a, encode));
  const seen = new Set<string>();
  const recentOptions = recents
    .filter((r) => {
      const key = `${r.projectName}\n${r.sessionId}`;
      if (seen.has(key)) return false;
      seen.add(key);
      const alias = aliasByKey.get(key);
      return !q || r.sessionId.toLowerCase().includes(q) || (alias !== undefined && alias.includes(q));
    })
    .filter((r) => fits(encode(r.projectName, r.sessionId)))
    .slice(0, 50)
    .map((r) => recentOption(r, encode, aliasByKey.get(`${r.projectName}\n${r.sessionId}`)));
  const groups: OptionGroups['option_groups'] = [];
  if (aliasOptions.length > 0) groups.push({ label: { type: 'plain_text', text: 'Aliases' }, options: aliasOptions });
  if (recentOptions.length > 0) groups.push({ label: { type: 'plain_text', text: 'Used lately' }, options: recentOptions });
  return { option_groups: groups };
}
