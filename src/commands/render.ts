/**
 * `/render start <url> [session]` publishes a web page into a session (Experience Composer);
 * `/render stop [id]` asks for confirmation first; `/render list [session]` and
 * `/render show <id>` read (viewers may use them). A start posts a card with a Stop button and
 * hands the composer to the poller.
 */
import { z } from 'zod';
import { RESOLUTIONS, type Render, type Resolution } from '../api';
import { renderSnapshot } from '../poller/snapshot';
import { code } from '../slack/mrkdwn';
import { replyEphemeral } from '../slack/respond';
import { warning } from '../views/blocks';
import { errorMessage } from '../views/errors';
import { isRenderRunning } from '../kinds/composer';
import { renderDetails, renderListMessage, renderStopConfirmCard } from '../views/render';
import { composerContext, composerKind } from '../kinds/composer';
import { startModel } from '../kinds';
import { durationFlag } from './captions';
import type { Interaction } from '../interaction/interaction';
import { defineCommand, defineSubcommand } from './command';
import { identifier, projectFlag, projectName, sessionRef } from './grammar';
import { performChange } from '../interaction/change';
import { type ResolvedSession, resolveProject, resolveSession, sessionName, withAlias } from '../interaction/session-ref';

export const RENDER_DEFAULT_MAX_DURATION_S = 7200;
/** One page of the list endpoint (its maximum). */
const LIST_PAGE = 1000;

/** Slack may wrap links as `<https://…>` or `<https://…|label>`; the address is what counts. */
export function unwrapLink(text: string): string {
  const match = /^<([^|>]+)(?:\|[^>]*)?>$/.exec(text.trim());
  return match ? match[1]! : text.trim();
}

const pageUrl = z.string().transform((text, ctx) => {
  const url = unwrapLink(text);
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
    ctx.addIssue({ code: 'custom', message: 'give the full address of a public web page, starting with https:// (e.g. https://meet.example.com/board/42)' });
    return z.NEVER;
  }
  if (url.length < 15 || url.length > 2048) {
    ctx.addIssue({ code: 'custom', message: `the address must be 15 to 2048 characters long (it has ${url.length})` });
    return z.NEVER;
  }
  return url;
});

const resolution = z.string().transform((text, ctx): Resolution => {
  const found = RESOLUTIONS.find((r) => r === text.toLowerCase().replace('×', 'x'));
  if (!found) {
    ctx.addIssue({ code: 'custom', message: `“${text}” is not a resolution; use one of ${RESOLUTIONS.join(', ')}` });
    return z.NEVER;
  }
  return found;
});

const streamName = z.string().min(1, { error: 'the stream name cannot be empty' }).max(200, { error: 'the stream name has at most 200 characters' });

const renderId = identifier('a composer ID');

const sessionPositional = { name: 'session', label: 'session', optional: true, description: 'session ID or alias; default: the channel’s session' } as const;

const startRender = defineSubcommand({
  name: 'start',
  summary: 'Publish a web page into a session as a stream',
  role: 'moderator',
  args: {
    positionals: [{ name: 'url', label: 'url', description: 'a public page that needs no login or clicks, https://…' }, sessionPositional],
    flags: [
      { name: 'name', kind: 'value', valueLabel: 'stream-name', description: 'name of the published stream (1 to 200 characters)' },
      { name: 'resolution', kind: 'value', valueLabel: 'WxH', description: `${RESOLUTIONS.join(', ')} (default 1280x720)` },
      {
        name: 'max-duration',
        kind: 'value',
        valueLabel: 'seconds',
        description: 'stop by itself after this long: 60 to 36000 s, or e.g. 90m, 2h (default 2 h)',
      },
      projectFlag,
    ],
    schema: z.object({
      url: pageUrl,
      session: sessionRef.optional(),
      name: streamName.optional(),
      resolution: resolution.optional(),
      maxDuration: durationFlag(60, 36_000, '3600').optional(),
      project: projectName.optional(),
    }),
    examples: ['https://meet.example.com/board/42', 'https://meet.example.com/board/42 standup --name Whiteboard --resolution 1920x1080 --max-duration 1h'],
  },
  target: (args) => args.session ?? '',
  async run(ix, args) {
    const resolved = await resolveSession(ix.services, ix, args.session, args.project);
    if (!resolved.ok) return replyEphemeral(ix, warning(resolved.message));
    const s = resolved.value;
    const maxDurationS = args.maxDuration ?? RENDER_DEFAULT_MAX_DURATION_S;
    const asked = { startedBy: ix.userId, ...(s.alias ? { alias: s.alias } : {}), maxDuration: maxDurationS };
    await performChange(ix, {
      command: '/render start',
      target: `${args.url} in session ${s.sessionId}`.slice(0, 500),
      projectName: s.projectName,
      errorContext: { operation: 'render-start', sessionId: s.sessionId },
      call: (video) =>
        video.render.start({
          sessionId: s.sessionId,
          url: args.url,
          ...(args.resolution ? { resolution: args.resolution } : {}),
          ...(args.maxDuration !== undefined ? { maxDuration: args.maxDuration } : {}),
          ...(args.name ? { properties: { name: args.name } } : {}),
        }),
      notice: (render) =>
        composerKind.render({
          resourceId: render.id,
          sessionId: s.sessionId,
          projectName: s.projectName,
          state: renderSnapshot(render),
          context: composerContext(render, asked),
          actions: [],
          now: ix.services.clock(),
        }),
      track: (render) => ({
        kind: 'render',
        resourceId: render.id,
        sessionId: s.sessionId,
        initialState: renderSnapshot(render),
        card: startModel(composerContext(render, asked)),
      }),
    });
  },
});

/** The composers of the project (the latest page), or of one session. */
async function listRenders(ix: Interaction, projectName: string, sessionId?: string): Promise<{ items: Render[]; total: number }> {
  const page = await ix.services.projects.client(projectName).render.list({ count: LIST_PAGE });
  if (sessionId === undefined) return { items: page.items, total: Math.max(page.count, page.items.length) };
  const items = page.items.filter((r) => r.sessionId === sessionId);
  return { items, total: items.length };
}

const stopRender = defineSubcommand({
  name: 'stop',
  summary: 'Stop a composer (asks for confirmation; default: the one running in the channel’s session)',
  role: 'moderator',
  args: {
    positionals: [{ name: 'id', label: 'id', optional: true, description: 'composer ID (on its card, or in `/render list`)' }],
    flags: [
      { name: 'session', kind: 'value', valueLabel: 'session', description: 'session ID or alias whose composer to stop; default: the channel’s session' },
      projectFlag,
    ],
    schema: z.object({ id: renderId.optional(), session: sessionRef.optional(), project: projectName.optional() }),
    examples: ['', '80abaf0d-25a3-4efc-968f-6268d620668d', '--session standup'],
  },
  target: (args) => (args.id ? `composer ${args.id}` : (args.session ?? '')),
  async run(ix, args) {
    if (args.id !== undefined) {
      const project = await resolveProject(ix.services, ix, args.project);
      if (!project.ok) return replyEphemeral(ix, warning(project.message));
      const projectName = project.value.projectName;
      let render: Render;
      try {
        render = await ix.services.projects.client(projectName).render.get(args.id);
      } catch (error) {
        ix.logger.info('reading the composer to stop failed', { error });
        return replyEphemeral(ix, errorMessage(error, { operation: 'render-stop', project: projectName, resourceId: args.id }));
      }
      if (!isRenderRunning(render.status)) {
        return replyEphemeral(
          ix,
          warning(`Composer ${code(render.id)} has already ${render.status === 'failed' ? 'failed' : 'stopped'}; there is nothing to stop.`),
        );
      }
      return replyEphemeral(ix, renderStopConfirmCard(await withAlias(ix.services, ix.teamId, { projectName, sessionId: render.sessionId }), render));
    }
    const resolved = await resolveSession(ix.services, ix, args.session, args.project);
    if (!resolved.ok) return replyEphemeral(ix, warning(resolved.message));
    const s: ResolvedSession = resolved.value;
    let running: Render[];
    try {
      running = (await listRenders(ix, s.projectName, s.sessionId)).items.filter((r) => isRenderRunning(r.status));
    } catch (error) {
      ix.logger.info('listing composers failed', { error });
      return replyEphemeral(ix, errorMessage(error, { operation: 'render-read', project: s.projectName, sessionId: s.sessionId }));
    }
    if (running.length === 0) {
      return replyEphemeral(ix, warning(`No composer is running in session ${sessionName(s)}; \`/render list\` shows the composers of the project.`));
    }
    if (running.length === 1) return replyEphemeral(ix, renderStopConfirmCard(s, running[0]!));
    return replyEphemeral(ix, renderListMessage({ projectName: s.projectName, session: s, total: running.length, via: 'typed' }, running));
  },
});

const listRendersCommand = defineSubcommand({
  name: 'list',
  summary: 'List composers (running first), of the project or of one session',
  role: 'viewer',
  args: {
    positionals: [{ name: 'session', label: 'session', optional: true, description: 'only this session’s composers (ID or alias)' }],
    flags: [projectFlag],
    schema: z.object({ session: sessionRef.optional(), project: projectName.optional() }),
    examples: ['', 'standup'],
  },
  target: (args) => args.session ?? '',
  async run(ix, args) {
    let projectName: string;
    let session: ResolvedSession | undefined;
    if (args.session !== undefined) {
      const resolved = await resolveSession(ix.services, ix, args.session, args.project);
      if (!resolved.ok) return replyEphemeral(ix, warning(resolved.message));
      session = resolved.value;
      projectName = session.projectName;
    } else {
      const resolved = await resolveProject(ix.services, ix, args.project);
      if (!resolved.ok) return replyEphemeral(ix, warning(resolved.message));
      projectName = resolved.value.projectName;
    }
    try {
      const { items, total } = await listRenders(ix, projectName, session?.sessionId);
      await replyEphemeral(ix, renderListMessage({ projectName, ...(session ? { session } : {}), total }, items));
    } catch (error) {
      ix.logger.info('listing composers failed', { error });
      await replyEphemeral(ix, errorMessage(error, { operation: 'render-read', project: projectName, ...(session ? { sessionId: session.sessionId } : {}) }));
    }
  },
});

const showRender = defineSubcommand({
  name: 'show',
  summary: 'Show one composer: status, page, resolution, stream',
  role: 'viewer',
  args: {
    positionals: [{ name: 'id', label: 'id', description: 'composer ID (on its card, or in `/render list`)' }],
    flags: [projectFlag],
    schema: z.object({ id: renderId, project: projectName.optional() }),
    examples: ['80abaf0d-25a3-4efc-968f-6268d620668d'],
  },
  target: (args) => `composer ${args.id}`,
  async run(ix, args) {
    const project = await resolveProject(ix.services, ix, args.project);
    if (!project.ok) return replyEphemeral(ix, warning(project.message));
    const projectName = project.value.projectName;
    try {
      const render = await ix.services.projects.client(projectName).render.get(args.id);
      await replyEphemeral(ix, renderDetails(projectName, render));
    } catch (error) {
      ix.logger.info('reading a composer failed', { error });
      await replyEphemeral(ix, errorMessage(error, { operation: 'render-read', project: projectName, resourceId: args.id }));
    }
  },
});

export const renderCommand = defineCommand({
  command: '/render',
  summary: 'Publish a web page into a session (Experience Composer): start, stop, list, show.',
  subcommands: [startRender, stopRender, listRendersCommand, showRender],
});
