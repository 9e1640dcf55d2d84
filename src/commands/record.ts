/**
 * `/record` — recordings (archives) of sessions: start (typed, or the form when given nothing),
 * stop, list, show, delete, layout, stream selection, and the project's upload target.
 * Handlers live in `record/`; cards and modals in `views/archive*.ts` and `views/storage.ts`.
 */
import { z } from 'zod';
import { replyEphemeral } from '../slack/respond';
import { warning } from '../views/blocks';
import { type CommandInvocation, defineCommand, defineSubcommand } from './command';
import { projectFlag, projectName, sessionRef } from './grammar';
import {
  archiveId,
  archiveName,
  archiveTag,
  checkLayoutArgs,
  checkMediaArgs,
  layoutFlags,
  layoutFrom,
  layoutType,
  looksLikeSessionRef,
  mediaFlags,
  mediaFrom,
  resolution,
  screenshareType,
  streamId,
} from './record/args';
import { changeLayout, changeStreams, confirmDelete, showArchive, showArchivePage } from './record/manage';
import { openStartModal, startRecording } from './record/start';
import { confirmStop, offerStopChoice } from './record/stop';
import { runStorage } from './record/storage';
import { resolveProject, resolveSession } from '../interaction/session-ref';

const sessionPositional = { name: 'session', label: 'session', optional: true, description: 'session ID or alias; default: the channel’s session' } as const;
const archivePositional = { name: 'archive', label: 'recording-id', description: 'the recording’s ID (`/record list` shows them)' } as const;

/** One word that cannot be a session ID or alias is the name: `/record start "Weekly review"`. */
function splitSessionAndName(session: string | undefined, name: string | undefined): { session?: string; name?: string } {
  if (session !== undefined && name === undefined && !looksLikeSessionRef(session)) return { session: undefined, name: session };
  return { session, name };
}

const startSchema = z
  .object({
    session: z.string().optional(),
    name: z.string().optional(),
    individual: z.boolean().optional(),
    resolution: resolution.optional(),
    layout: layoutType.optional(),
    screenshare: screenshareType.optional(),
    stylesheet: z.string().optional(),
    manual: z.boolean().optional(),
    audioOnly: z.boolean().optional(),
    videoOnly: z.boolean().optional(),
    tag: archiveTag.optional(),
    project: projectName.optional(),
  })
  .superRefine((args, ctx) => {
    const { session, name } = splitSessionAndName(args.session, args.name);
    const badSession = session === undefined ? undefined : sessionRef.safeParse(session);
    if (badSession && !badSession.success) ctx.addIssue({ code: 'custom', path: ['session'], message: badSession.error.issues[0]!.message });
    const badName = name === undefined ? undefined : archiveName.safeParse(name);
    if (badName && !badName.success) ctx.addIssue({ code: 'custom', path: ['name'], message: badName.error.issues[0]!.message });
    if (args.individual) {
      if (args.resolution !== undefined)
        ctx.addIssue({ code: 'custom', path: ['resolution'], message: 'applies only to composed recordings; drop --individual or --resolution' });
      const layoutFlag =
        args.layout !== undefined ? 'layout' : args.screenshare !== undefined ? 'screenshare' : args.stylesheet !== undefined ? 'stylesheet' : undefined;
      if (layoutFlag)
        ctx.addIssue({ code: 'custom', path: [layoutFlag], message: `applies only to composed recordings; drop --individual or --${layoutFlag}` });
    }
    checkLayoutArgs(args, ctx);
    checkMediaArgs(args, ctx);
  })
  .transform((args) => ({ ...args, ...splitSessionAndName(args.session, args.name) }));

type StartArgs = z.output<typeof startSchema>;

/** `/record start` and nothing else opens the form. */
function isBare(args: StartArgs): boolean {
  return Object.values(args).every((value) => value === undefined);
}

async function projectOf(ix: CommandInvocation, flag: string | undefined): Promise<string | undefined> {
  const project = await resolveProject(ix.services, ix, flag);
  if (project.ok) return project.value.projectName;
  await replyEphemeral(ix, warning(project.message));
  return undefined;
}

/** `show` and `delete` take one recording ID (and the project). */
const oneArchiveArgs = {
  positionals: [archivePositional],
  flags: [projectFlag],
  schema: z.object({ archive: archiveId, project: projectName.optional() }),
  examples: ['b40ef09b-3811-4726-b508-e41a0f96c68f'],
};

export const recordCommand = defineCommand({
  command: '/record',
  summary: 'Record sessions: start, stop, list, download, delete, change the layout or the streams, and set where recordings are uploaded.',
  subcommands: [
    defineSubcommand({
      name: 'start',
      summary: 'Start recording a session (with nothing after it: a form with every option)',
      role: 'moderator',
      args: {
        positionals: [
          sessionPositional,
          {
            name: 'name',
            label: 'name',
            optional: true,
            description: 'name of the recording, in quotes if it has spaces; a quoted name alone records the channel’s session',
          },
        ],
        flags: [
          { name: 'individual', kind: 'boolean', description: 'one file per stream instead of one composed video' },
          {
            name: 'resolution',
            kind: 'value',
            valueLabel: 'WxH',
            description: 'composed video size: 640x480 (default), 1280x720, 1920x1080, 480x640, 720x1280, 1080x1920',
          },
          ...layoutFlags,
          { name: 'manual', kind: 'boolean', description: 'record only the streams added with `/record add`' },
          ...mediaFlags,
          {
            name: 'tag',
            kind: 'value',
            valueLabel: 'tag',
            description: 'needed to record a session that is already being recorded (one tag per parallel recording)',
          },
          projectFlag,
        ],
        schema: startSchema,
        examples: [
          '',
          'standup "Weekly review" --resolution 1280x720',
          '"Weekly review"',
          'standup --layout bestFit --screenshare pip',
          'townhall --individual --manual --tag speakers',
        ],
      },
      target: (args) => args.session ?? '',
      async run(ix, args) {
        if (isBare(args)) return openStartModal(ix);
        const resolved = await resolveSession(ix.services, ix, args.session, args.project);
        if (!resolved.ok) return replyEphemeral(ix, warning(resolved.message));
        const layout = layoutFrom(args);
        await startRecording(ix, resolved.value, {
          ...(args.name !== undefined ? { name: args.name } : {}),
          ...(args.individual ? { outputMode: 'individual' as const } : {}),
          ...(args.resolution ? { resolution: args.resolution } : {}),
          ...(layout ? { layout } : {}),
          ...(args.manual ? { streamMode: 'manual' as const } : {}),
          ...mediaFrom(args),
          ...(args.tag !== undefined ? { multiArchiveTag: args.tag } : {}),
        });
      },
    }),
    defineSubcommand({
      name: 'stop',
      summary: 'Stop a recording',
      role: 'moderator',
      args: {
        positionals: [
          {
            name: 'archive',
            label: 'recording-id',
            optional: true,
            description:
              'the recording to stop. You get a card naming it, whose Stop button stops it; without an ID, the session’s recordings in progress, each with its Stop button',
          },
        ],
        flags: [
          { name: 'session', kind: 'value', valueLabel: 'session', description: 'without an ID: whose recordings to offer (default: the channel’s session)' },
          projectFlag,
        ],
        schema: z
          .object({ archive: archiveId.optional(), session: sessionRef.optional(), project: projectName.optional() })
          .refine((args) => !(args.archive && args.session), { path: ['session'], error: 'give a recording ID or --session, not both' }),
        examples: ['', 'b40ef09b-3811-4726-b508-e41a0f96c68f', '--session standup'],
      },
      target: (args) => args.archive ?? args.session ?? '',
      async run(ix, args) {
        if (args.archive === undefined) {
          const resolved = await resolveSession(ix.services, ix, args.session, args.project);
          if (!resolved.ok) return replyEphemeral(ix, warning(resolved.message));
          return offerStopChoice(ix, resolved.value);
        }
        const project = await projectOf(ix, args.project);
        if (project) await confirmStop(ix, { projectName: project, archiveId: args.archive });
      },
    }),
    defineSubcommand({
      name: 'list',
      summary: 'List recordings: the session’s, or the whole project’s with --all (newest first)',
      role: 'viewer',
      args: {
        positionals: [sessionPositional],
        flags: [{ name: 'all', kind: 'boolean', description: 'every recording of the project, not only this session’s' }, projectFlag],
        schema: z
          .object({ session: sessionRef.optional(), all: z.boolean().optional(), project: projectName.optional() })
          .refine((args) => !(args.all && args.session), {
            path: ['all'],
            error: 'lists every recording of the project; leave out the session, or drop --all',
          }),
        examples: ['', 'standup', '--all'],
      },
      target: (args) => args.session ?? (args.all ? 'all' : ''),
      async run(ix, args) {
        if (args.all) {
          const project = await projectOf(ix, args.project);
          if (project) await showArchivePage(ix, { p: project, o: 0 });
          return;
        }
        const resolved = await resolveSession(ix.services, ix, args.session, args.project);
        if (!resolved.ok) return replyEphemeral(ix, warning(resolved.message));
        const s = resolved.value;
        await showArchivePage(ix, { p: s.projectName, o: 0, s: s.sessionId, ...(s.alias ? { a: s.alias } : {}) });
      },
    }),
    defineSubcommand({
      name: 'show',
      summary: 'Show one recording with its buttons (Stop, Download, Delete)',
      role: 'viewer',
      args: oneArchiveArgs,
      target: (args) => args.archive,
      async run(ix, args) {
        const project = await projectOf(ix, args.project);
        if (project) await showArchive(ix, { projectName: project, archiveId: args.archive });
      },
    }),
    defineSubcommand({
      name: 'delete',
      summary: 'Delete an available or uploaded recording (asks for confirmation)',
      role: 'admin',
      args: oneArchiveArgs,
      target: (args) => args.archive,
      async run(ix, args) {
        const project = await projectOf(ix, args.project);
        if (project) await confirmDelete(ix, { projectName: project, archiveId: args.archive });
      },
    }),
    defineSubcommand({
      name: 'layout',
      summary: 'Change the layout of a composed recording in progress',
      role: 'moderator',
      args: {
        positionals: [archivePositional],
        flags: [...layoutFlags, projectFlag],
        schema: z
          .object({
            archive: archiveId,
            layout: layoutType.optional(),
            screenshare: screenshareType.optional(),
            stylesheet: z.string().optional(),
            project: projectName.optional(),
          })
          .superRefine((args, ctx) => {
            if (args.layout === undefined && args.screenshare === undefined && args.stylesheet === undefined) {
              ctx.addIssue({
                code: 'custom',
                path: ['layout'],
                message: 'is missing: say which layout (bestFit, custom, horizontalPresentation, pip, verticalPresentation)',
              });
            }
            checkLayoutArgs(args, ctx);
          }),
        examples: [
          'b40ef09b-3811-4726-b508-e41a0f96c68f --layout pip',
          'b40ef09b-3811-4726-b508-e41a0f96c68f --layout bestFit --screenshare verticalPresentation',
        ],
      },
      target: (args) => args.archive,
      async run(ix, args) {
        const project = await projectOf(ix, args.project);
        if (project) await changeLayout(ix, { projectName: project, archiveId: args.archive }, layoutFrom(args)!);
      },
    }),
    defineSubcommand({
      name: 'add',
      summary: 'Add a stream to a manual recording (again with other media: switch its audio or video)',
      role: 'moderator',
      args: {
        positionals: [archivePositional, { name: 'stream', label: 'stream-id', description: 'the stream to record (`/streams` lists them)' }],
        flags: [...mediaFlags, projectFlag],
        schema: z
          .object({
            archive: archiveId,
            stream: streamId,
            audioOnly: z.boolean().optional(),
            videoOnly: z.boolean().optional(),
            project: projectName.optional(),
          })
          .superRefine(checkMediaArgs),
        examples: [
          'b40ef09b-3811-4726-b508-e41a0f96c68f 8b732909-0a06-46a2-8ea8-074e64d43422',
          'b40ef09b-3811-4726-b508-e41a0f96c68f 8b732909-0a06-46a2-8ea8-074e64d43422 --audio-only',
        ],
      },
      target: (args) => `${args.stream} in ${args.archive}`,
      async run(ix, args) {
        const project = await projectOf(ix, args.project);
        if (project) await changeStreams(ix, { projectName: project, archiveId: args.archive }, { streamId: args.stream, action: 'add', ...mediaFrom(args) });
      },
    }),
    defineSubcommand({
      name: 'remove',
      summary: 'Remove a stream from a manual recording',
      role: 'moderator',
      args: {
        positionals: [archivePositional, { name: 'stream', label: 'stream-id', description: 'the stream to stop recording' }],
        flags: [projectFlag],
        schema: z.object({ archive: archiveId, stream: streamId, project: projectName.optional() }),
        examples: ['b40ef09b-3811-4726-b508-e41a0f96c68f 8b732909-0a06-46a2-8ea8-074e64d43422'],
      },
      target: (args) => `${args.stream} in ${args.archive}`,
      async run(ix, args) {
        const project = await projectOf(ix, args.project);
        if (project) await changeStreams(ix, { projectName: project, archiveId: args.archive }, { streamId: args.stream, action: 'remove' });
      },
    }),
    defineSubcommand({
      name: 'storage',
      summary: 'Set where the project’s recordings are uploaded (a form; keys are never shown back), or remove it with `clear`',
      role: 'admin',
      args: {
        positionals: [{ name: 'action', label: 'clear', optional: true, description: '`clear` removes the upload target (asks for confirmation)' }],
        flags: [projectFlag],
        schema: z.object({ action: z.enum(['clear'], { error: 'the only word storage takes is `clear`' }).optional(), project: projectName.optional() }),
        examples: ['', 'clear', '--project prod'],
      },
      target: (args) => (args.action === 'clear' ? 'upload target (clear)' : 'upload target'),
      async run(ix, args) {
        const project = await projectOf(ix, args.project);
        if (project) await runStorage(ix, project, args.action === 'clear');
      },
    }),
  ],
});
