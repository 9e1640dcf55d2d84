/**
 * `/broadcast stop|list|show|layout|add|remove`: everything after the start. Reads answer only the
 * asker; changes go through `performChange` (call → audit → cards → in-channel notice). Stopping
 * asks first: the typed form answers with a confirmation card whose button opens Slack's
 * confirm dialog (`src/actions/broadcast.ts` does the stop).
 */
import { z } from 'zod';
import { type Broadcast, VideoNotFoundError } from '../../api';
import { code } from '../../slack/mrkdwn';
import { replyEphemeral } from '../../slack/respond';
import { context, warning } from '../../views/blocks';
import { broadcastContext, broadcastKind } from '../../kinds/broadcast';
import { broadcastSnapshot } from '../../poller/snapshot';
import {
  MAX_BROADCASTS_IN_LIST,
  broadcastLayoutNotice,
  broadcastListMessage,
  broadcastStreamNotice,
  stopChoiceCard,
  stopConfirmCard,
} from '../../views/broadcast';
import { type BroadcastErrorContext, broadcastErrorMessage } from '../../views/broadcast-errors';
import type { Interaction } from '../../interaction/interaction';
import { defineSubcommand } from '../command';
import { identifier, projectFlag, projectName, sessionRef } from '../grammar';
import { performChange } from '../../interaction/change';
import { resolveProject, resolveSession } from '../../interaction/session-ref';
import { LAYOUT_TYPE_LIST, SCREENSHARE_TYPE_LIST, layoutProblem, parseLayoutType, parseScreenshareType } from './values';

const broadcastId = identifier('a broadcast ID');
const broadcastIdArg = { name: 'broadcastId', label: 'broadcast-id', description: 'the broadcast; `/broadcast list` shows them' } as const;
const EXAMPLE_ID = '6706b658-2eba-42cc-b4d2-7d01a104d182';
const EXAMPLE_STREAM = '8b732909-0a06-46a2-8ea8-074e64d43422';

/** Aliases of the project's sessions, so cards name sessions the way the team does. */
async function aliasesOf(ix: Interaction, projectName: string): Promise<Map<string, string>> {
  try {
    const aliases = await ix.services.store.listAliases(ix.teamId, undefined, 200);
    return new Map(aliases.filter((a) => a.projectName === projectName).map((a) => [a.sessionId, a.alias]));
  } catch (error) {
    ix.logger.warn('could not read the aliases', { error });
    return new Map();
  }
}

function errorContext(base: Omit<BroadcastErrorContext, 'project'>, project: string): BroadcastErrorContext {
  return { ...base, project };
}

const stopSub = defineSubcommand({
  name: 'stop',
  summary: 'Stop a broadcast (after a confirmation); without an ID, the channel session’s',
  role: 'moderator',
  args: {
    positionals: [{ ...broadcastIdArg, optional: true, description: 'the broadcast; default: the one running in the channel’s session' }],
    flags: [projectFlag],
    schema: z.object({ broadcastId: broadcastId.optional(), project: projectName.optional() }),
    examples: ['', EXAMPLE_ID],
  },
  target: (args) => (args.broadcastId ? `broadcast ${args.broadcastId}` : ''),
  async run(ix, args) {
    if (args.broadcastId !== undefined) {
      const project = await resolveProject(ix.services, ix, args.project);
      if (!project.ok) return replyEphemeral(ix, warning(project.message));
      const projectName = project.value.projectName;
      const ctx = errorContext({ operation: 'stop', broadcastId: args.broadcastId }, projectName);
      let broadcast: Broadcast;
      try {
        broadcast = await ix.services.projects.client(projectName).broadcasts.get(args.broadcastId);
      } catch (error) {
        if (!(error instanceof VideoNotFoundError)) ix.logger.warn('reading the broadcast before stopping failed', { error });
        return replyEphemeral(ix, broadcastErrorMessage(error, error instanceof VideoNotFoundError ? ctx : { ...ctx, operation: 'read' }));
      }
      if (broadcast.status !== 'started') {
        return replyEphemeral(ix, warning(`Broadcast ${code(broadcast.id)} has already stopped; there is nothing to stop.`));
      }
      const alias = (await aliasesOf(ix, projectName)).get(broadcast.sessionId);
      return replyEphemeral(ix, stopConfirmCard(broadcast, { projectName, ...(alias ? { alias } : {}) }));
    }

    const resolved = await resolveSession(ix.services, ix, undefined, args.project);
    if (!resolved.ok) {
      return replyEphemeral(
        ix,
        warning(
          'Which broadcast? Give its ID (`/broadcast list` shows them), or set this channel’s session with `/video use <session-id|alias>` to stop the one running there.',
        ),
      );
    }
    const s = resolved.value;
    let running: readonly Broadcast[];
    try {
      running = (await ix.services.projects.client(s.projectName).broadcasts.list({ sessionId: s.sessionId, count: 50 })).items;
    } catch (error) {
      ix.logger.warn('listing the session’s broadcasts failed', { error });
      return replyEphemeral(
        ix,
        broadcastErrorMessage(error, { operation: 'read', project: s.projectName, sessionId: s.sessionId, ...(s.alias ? { alias: s.alias } : {}) }),
      );
    }
    const session = s.alias ? code(s.alias) : code(s.sessionId);
    if (running.length === 0) return replyEphemeral(ix, warning(`No broadcast is running in session ${session}; there is nothing to stop.`));
    const ref = { projectName: s.projectName, ...(s.alias ? { alias: s.alias } : {}) };
    if (running.length === 1) return replyEphemeral(ix, stopConfirmCard(running[0]!, ref));
    return replyEphemeral(ix, stopChoiceCard(running, { ...ref, sessionId: s.sessionId }));
  },
});

const listSub = defineSubcommand({
  name: 'list',
  summary: 'List the running broadcasts of the project, or of one session',
  role: 'viewer',
  args: {
    positionals: [{ name: 'session', label: 'session', optional: true, description: 'session ID or alias; default: every session of the project' }],
    flags: [projectFlag],
    schema: z.object({ session: sessionRef.optional(), project: projectName.optional() }),
    examples: ['', 'standup', '--project prod'],
  },
  target: (args) => args.session ?? '',
  async run(ix, args) {
    let projectName: string;
    let session: { projectName: string; sessionId: string; alias?: string } | undefined;
    if (args.session !== undefined) {
      const resolved = await resolveSession(ix.services, ix, args.session, args.project);
      if (!resolved.ok) return replyEphemeral(ix, warning(resolved.message));
      session = resolved.value;
      projectName = resolved.value.projectName;
    } else {
      const project = await resolveProject(ix.services, ix, args.project);
      if (!project.ok) return replyEphemeral(ix, warning(project.message));
      projectName = project.value.projectName;
    }
    try {
      const page = await ix.services.projects
        .client(projectName)
        .broadcasts.list({ count: MAX_BROADCASTS_IN_LIST, ...(session ? { sessionId: session.sessionId } : {}) });
      const aliases = await aliasesOf(ix, projectName);
      await replyEphemeral(ix, broadcastListMessage(projectName, page.items, { ...(session ? { session } : {}), aliases, total: page.count }));
    } catch (error) {
      ix.logger.warn('listing broadcasts failed', { error });
      await replyEphemeral(ix, broadcastErrorMessage(error, { operation: 'read', project: projectName, ...(session ? { sessionId: session.sessionId } : {}) }));
    }
  },
});

const showSub = defineSubcommand({
  name: 'show',
  summary: 'Show one broadcast: its outputs and their status',
  role: 'viewer',
  args: {
    positionals: [broadcastIdArg],
    flags: [projectFlag],
    schema: z.object({ broadcastId, project: projectName.optional() }),
    examples: [EXAMPLE_ID],
  },
  target: (args) => `broadcast ${args.broadcastId}`,
  async run(ix, args) {
    const project = await resolveProject(ix.services, ix, args.project);
    if (!project.ok) return replyEphemeral(ix, warning(project.message));
    const projectName = project.value.projectName;
    try {
      const broadcast = await ix.services.projects.client(projectName).broadcasts.get(args.broadcastId);
      const alias = (await aliasesOf(ix, projectName)).get(broadcast.sessionId);
      const card = broadcastKind.render({
        resourceId: broadcast.id,
        sessionId: broadcast.sessionId,
        projectName,
        state: broadcastSnapshot(broadcast, ix.services.clock()),
        context: broadcastContext(broadcast, alias ? { alias } : {}),
        actions: [],
        now: ix.services.clock(),
      });
      await replyEphemeral(ix, { text: card.text, blocks: [...card.blocks, context('Only you can see this.')] });
    } catch (error) {
      if (!(error instanceof VideoNotFoundError)) ix.logger.warn('reading a broadcast failed', { error });
      await replyEphemeral(ix, broadcastErrorMessage(error, { operation: 'read', project: projectName, broadcastId: args.broadcastId }));
    }
  },
});

const layoutSchema = z
  .object({
    broadcastId,
    type: z.string(),
    screenshare: z.string().optional(),
    stylesheet: z.string().optional(),
    project: projectName.optional(),
  })
  .transform((raw, ctx) => {
    const type = parseLayoutType(raw.type);
    if (!type) {
      ctx.addIssue({ code: 'custom', path: ['type'], message: `use ${LAYOUT_TYPE_LIST}` });
      return z.NEVER;
    }
    const screenshareType = raw.screenshare === undefined ? undefined : parseScreenshareType(raw.screenshare);
    if (raw.screenshare !== undefined && !screenshareType) {
      ctx.addIssue({ code: 'custom', path: ['screenshare'], message: `use ${SCREENSHARE_TYPE_LIST}` });
      return z.NEVER;
    }
    const layout = { type, ...(raw.stylesheet !== undefined ? { stylesheet: raw.stylesheet } : {}), ...(screenshareType ? { screenshareType } : {}) };
    const problem = layoutProblem(layout);
    if (problem) {
      ctx.addIssue({
        code: 'custom',
        path: [problem.includes('screen-share') ? 'screenshare' : problem.startsWith('a stylesheet') ? 'stylesheet' : 'type'],
        message: problem,
      });
      return z.NEVER;
    }
    return { broadcastId: raw.broadcastId, layout, ...(raw.project !== undefined ? { project: raw.project } : {}) };
  });

const layoutSub = defineSubcommand({
  name: 'layout',
  summary: 'Change the layout of a running broadcast',
  role: 'moderator',
  args: {
    positionals: [broadcastIdArg, { name: 'type', label: 'type', description: `${LAYOUT_TYPE_LIST} (layouts but bestFit need layout classes on the streams)` }],
    flags: [
      { name: 'screenshare', kind: 'value', valueLabel: 'type', description: 'layout while a screen is shared (with bestFit only)' },
      { name: 'stylesheet', kind: 'value', valueLabel: 'css', description: 'the custom layout’s stylesheet, in quotes' },
      projectFlag,
    ],
    schema: layoutSchema,
    examples: [`${EXAMPLE_ID} bestFit --screenshare horizontalPresentation`, `${EXAMPLE_ID} custom --stylesheet "stream.focus { width: 100%; }"`],
  },
  target: (args) => `broadcast ${args.broadcastId}`,
  async run(ix, args) {
    const project = await resolveProject(ix.services, ix, args.project);
    if (!project.ok) return replyEphemeral(ix, warning(project.message));
    const projectName = project.value.projectName;
    const aliases = await aliasesOf(ix, projectName);
    await performChange(ix, {
      command: '/broadcast layout',
      target: `broadcast ${args.broadcastId} layout ${args.layout.type}${args.layout.screenshareType ? ` screenshare ${args.layout.screenshareType}` : ''}`,
      projectName,
      failure: async (error) => broadcastErrorMessage(error, { operation: 'layout', project: projectName, broadcastId: args.broadcastId }),
      card: () => ({ kind: 'broadcast', resourceId: args.broadcastId, action: 'layout', detail: args.layout.type }),
      call: async (video) => {
        const broadcast = await video.broadcasts.get(args.broadcastId);
        await video.broadcasts.setLayout(args.broadcastId, args.layout);
        return broadcast;
      },
      notice: (broadcast) => {
        const alias = aliases.get(broadcast.sessionId);
        return broadcastLayoutNotice(ix.userId, broadcast, { projectName, ...(alias ? { alias } : {}) }, args.layout);
      },
    });
  },
});

const removeStreamSchema = z.object({
  broadcastId,
  streamId: identifier('a stream ID'),
  project: projectName.optional(),
});

const addStreamSchema = removeStreamSchema.extend({ audioOnly: z.boolean().optional(), videoOnly: z.boolean().optional() }).superRefine((args, ctx) => {
  if (args.audioOnly && args.videoOnly) {
    ctx.addIssue({ code: 'custom', path: ['videoOnly'], message: 'give --audio-only or --video-only, not both (without either, both are included)' });
  }
});

const addSub = defineSubcommand({
  name: 'add',
  summary: 'Add a stream to a broadcast that chooses its streams by hand (--manual)',
  role: 'moderator',
  args: {
    positionals: [broadcastIdArg, { name: 'streamId', label: 'stream-id', description: 'the stream (`/streams` lists them)' }],
    flags: [
      { name: 'audio-only', kind: 'boolean', description: 'include only its audio' },
      { name: 'video-only', kind: 'boolean', description: 'include only its video' },
      projectFlag,
    ],
    schema: addStreamSchema,
    examples: [`${EXAMPLE_ID} ${EXAMPLE_STREAM}`, `${EXAMPLE_ID} ${EXAMPLE_STREAM} --audio-only`],
  },
  target: (args) => `stream ${args.streamId} → broadcast ${args.broadcastId}`,
  async run(ix, args) {
    await changeStreams(ix, 'added', args);
  },
});

const removeSub = defineSubcommand({
  name: 'remove',
  summary: 'Remove a stream from a broadcast that chooses its streams by hand',
  role: 'moderator',
  args: {
    positionals: [broadcastIdArg, { name: 'streamId', label: 'stream-id', description: 'the stream to take out' }],
    flags: [projectFlag],
    schema: removeStreamSchema,
    examples: [`${EXAMPLE_ID} ${EXAMPLE_STREAM}`],
  },
  target: (args) => `stream ${args.streamId} ← broadcast ${args.broadcastId}`,
  async run(ix, args) {
    await changeStreams(ix, 'removed', args);
  },
});

async function changeStreams(
  ix: Interaction,
  change: 'added' | 'removed',
  args: { broadcastId: string; streamId: string; audioOnly?: boolean; videoOnly?: boolean; project?: string },
): Promise<void> {
  const project = await resolveProject(ix.services, ix, args.project);
  if (!project.ok) return replyEphemeral(ix, warning(project.message));
  const projectName = project.value.projectName;
  const aliases = await aliasesOf(ix, projectName);
  const media = args.audioOnly ? ('audio only' as const) : args.videoOnly ? ('video only' as const) : undefined;
  await performChange(ix, {
    command: change === 'added' ? '/broadcast add' : '/broadcast remove',
    target: `stream ${args.streamId} ${change === 'added' ? 'to' : 'from'} broadcast ${args.broadcastId}`,
    projectName,
    failure: async (error) =>
      broadcastErrorMessage(error, {
        operation: change === 'added' ? 'add-stream' : 'remove-stream',
        project: projectName,
        broadcastId: args.broadcastId,
        streamId: args.streamId,
      }),
    card: () => ({ kind: 'broadcast', resourceId: args.broadcastId, action: change === 'added' ? 'add-stream' : 'remove-stream', detail: args.streamId }),
    call: async (video) => {
      const broadcast = await video.broadcasts.get(args.broadcastId);
      if (change === 'added') {
        await video.broadcasts.addStream(args.broadcastId, args.streamId, {
          ...(args.audioOnly ? { hasVideo: false } : {}),
          ...(args.videoOnly ? { hasAudio: false } : {}),
        });
      } else {
        await video.broadcasts.removeStream(args.broadcastId, args.streamId);
      }
      return broadcast;
    },
    notice: (broadcast) => {
      const alias = aliases.get(broadcast.sessionId);
      return broadcastStreamNotice(ix.userId, change, broadcast, { projectName, ...(alias ? { alias } : {}) }, args.streamId, media);
    },
  });
}

export const manageSubcommands = [stopSub, listSub, showSub, layoutSub, addSub, removeSub];
