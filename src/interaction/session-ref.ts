/**
 * Which project and which session a command acts on.
 *
 * Project: `--project <name>`, else the alias's project (when the session was named by alias),
 * else the channel's binding (`/video use --project`), else the project whose configured
 * `channels` list the channel, else the default project.
 *
 * Session: the argument — an alias (`/video alias <name> <session-id>`) or a raw session ID —
 * else the channel's default (`/video use <session|alias>`). Every successful resolution is
 * recorded as a recent session, which the session pickers offer.
 */
import type { Services } from '../services';
import { code, escapeAndTruncate } from '../slack/mrkdwn';

export interface Scope {
  teamId: string;
  channelId?: string;
  userId: string;
  /** Checks the asker's role for the project resolved; a denial ends the command (see authorize.ts). */
  gate?: (projectName: string) => Promise<void>;
}

export type ProjectSource = 'flag' | 'alias' | 'channel' | 'configured' | 'default';

export interface ResolvedProject {
  projectName: string;
  source: ProjectSource;
}

export interface ResolvedSession extends ResolvedProject {
  sessionId: string;
  /** The alias the session was named by (argument or channel default), if any. */
  alias?: string;
  /** Where the session came from: the command's argument or the channel's default. */
  sessionSource: 'argument' | 'channel';
}

export type Resolution<T> = { ok: true; value: T } | { ok: false; message: string };

/** Aliases are at most 40 characters; anything longer, or shaped like one, is a session ID. */
export function looksLikeSessionId(ref: string): boolean {
  return ref.length > 40 || /^[12]_[A-Za-z0-9_-]{8,}$/.test(ref);
}

type Deps = Pick<Services, 'store' | 'projects' | 'clock' | 'logger'>;

function unknownProject(deps: Deps, name: string): string {
  return `There is no project named *${escapeAndTruncate(name, 100)}*; the projects are ${deps.projects
    .names()
    .map((n) => `*${escapeAndTruncate(n, 100)}*`)
    .join(', ')}.`;
}

/** The project for a command that names no session (or before the session is known). */
export async function resolveProject(deps: Deps, scope: Scope, projectFlag?: string): Promise<Resolution<ResolvedProject>> {
  const resolved = await findProject(deps, scope, projectFlag);
  if (resolved.ok) await scope.gate?.(resolved.value.projectName);
  return resolved;
}

async function findProject(deps: Deps, scope: Scope, projectFlag?: string): Promise<Resolution<ResolvedProject>> {
  if (projectFlag !== undefined) {
    if (!deps.projects.has(projectFlag)) return { ok: false, message: unknownProject(deps, projectFlag) };
    return { ok: true, value: { projectName: projectFlag, source: 'flag' } };
  }
  if (scope.channelId) {
    const binding = await deps.store.getChannelBinding(scope.teamId, scope.channelId);
    if (binding?.projectName && deps.projects.has(binding.projectName)) {
      return { ok: true, value: { projectName: binding.projectName, source: 'channel' } };
    }
    const configured = deps.projects.configuredFor(scope.channelId);
    if (configured) return { ok: true, value: { projectName: configured, source: 'configured' } };
  }
  return { ok: true, value: { projectName: deps.projects.defaultName, source: 'default' } };
}

/**
 * Resolves `ref` (alias or session ID; the channel's default when absent) and the project, and
 * records the use.
 */
export async function resolveSession(deps: Deps, scope: Scope, ref: string | undefined, projectFlag?: string): Promise<Resolution<ResolvedSession>> {
  let sessionRef = ref;
  let sessionSource: ResolvedSession['sessionSource'] = 'argument';
  let boundProject: string | undefined;
  if (sessionRef === undefined) {
    const binding = scope.channelId ? await deps.store.getChannelBinding(scope.teamId, scope.channelId) : undefined;
    if (!binding?.sessionId) {
      return {
        ok: false,
        message: 'Which session? Name one (a session ID or an alias), or set this channel’s default with `/video use <session-id|alias>`.',
      };
    }
    sessionRef = binding.sessionId;
    sessionSource = 'channel';
    boundProject = binding.projectName;
  }

  const alias = await deps.store.getAlias(scope.teamId, sessionRef.toLowerCase());
  let resolved: ResolvedSession;
  if (alias) {
    const projectName = projectFlag ?? alias.projectName;
    if (!deps.projects.has(projectName)) return { ok: false, message: unknownProject(deps, projectName) };
    resolved = {
      projectName,
      source: projectFlag !== undefined ? 'flag' : 'alias',
      sessionId: alias.sessionId,
      alias: alias.alias,
      sessionSource,
    };
  } else if (looksLikeSessionId(sessionRef)) {
    let project: Resolution<ResolvedProject>;
    if (projectFlag === undefined && boundProject && deps.projects.has(boundProject)) {
      project = { ok: true, value: { projectName: boundProject, source: 'channel' } };
    } else {
      project = await findProject(deps, scope, projectFlag);
    }
    if (!project.ok) return project;
    // Named by its ID (or the channel's default, stored as an ID): still called by its alias.
    const known = await aliasOf(deps, scope.teamId, project.value.projectName, sessionRef);
    resolved = { ...project.value, sessionId: sessionRef, sessionSource, ...(known ? { alias: known } : {}) };
  } else {
    return {
      ok: false,
      message: `There is no alias named ${code(sessionRef)} (and it is not a session ID). Set one with \`/video alias ${escapeAndTruncate(sessionRef, 40)} <session-id>\`, or see them with \`/video aliases\`.`,
    };
  }

  await scope.gate?.(resolved.projectName);
  try {
    await deps.store.touchRecentSession({
      teamId: scope.teamId,
      projectName: resolved.projectName,
      sessionId: resolved.sessionId,
      usedBy: scope.userId,
      usedAt: deps.clock(),
    });
  } catch (err) {
    deps.logger.warn('could not record a recent session', { error: (err as Error).message });
  }
  return { ok: true, value: resolved };
}

/** The alias of a session known only by its ID (a button's value, a picker), if it has one. */
async function aliasOf(deps: Pick<Services, 'store' | 'logger'>, teamId: string, projectName: string, sessionId: string): Promise<string | undefined> {
  try {
    return await deps.store.aliasOfSession(teamId, projectName, sessionId);
  } catch (error) {
    deps.logger.warn('could not look up the session’s alias; naming it by its ID', { error: (error as Error).message });
    return undefined;
  }
}

/** `s` with its alias, looked up when a button's value did not carry one. */
export async function withAlias<S extends { projectName: string; sessionId: string; alias?: string }>(
  deps: Pick<Services, 'store' | 'logger'>,
  teamId: string,
  s: S,
): Promise<S> {
  if (s.alias) return s;
  const alias = await aliasOf(deps, teamId, s.projectName, s.sessionId);
  return alias ? { ...s, alias } : s;
}

/**
 * The channel that follows a session: the one whose default it is (the latest set), else the one
 * with its newest card. Where a notice goes when its asker named no channel (the shortcut).
 */
export async function sessionChannel(
  deps: Pick<Services, 'store' | 'logger'>,
  teamId: string,
  projectName: string,
  sessionId: string,
): Promise<string | undefined> {
  try {
    const [bound] = await deps.store.channelsDefaultingTo(teamId, projectName, sessionId);
    if (bound) return bound;
    const watches = await deps.store.listWatches({ teamId, projectName, sessionId }, { includeEnded: true });
    return watches.sort((a, b) => b.createdAt - a.createdAt)[0]?.channelId;
  } catch (error) {
    deps.logger.warn('could not find the session’s channel', { error: (error as Error).message });
    return undefined;
  }
}

/** How cards name a session: its alias when it has one, else the ID. */
export function sessionName(session: { sessionId: string; alias?: string }): string {
  return session.alias ? `${code(session.alias)}` : code(session.sessionId);
}

// Values of the session pickers (external selects): project and session ID, URL-encoded.
export function encodeSessionOption(projectName: string, sessionId: string): string {
  return new URLSearchParams({ p: projectName, s: sessionId }).toString();
}

export function decodeSessionOption(value: string): { projectName: string; sessionId: string } | undefined {
  const params = new URLSearchParams(value);
  const projectName = params.get('p');
  const sessionId = params.get('s');
  return projectName && sessionId ? { projectName, sessionId } : undefined;
}
