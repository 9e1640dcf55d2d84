/**
 * `/session create [alias] [--relayed] [--archive always [--archive-name N] [--archive-resolution R]]
 * [--e2ee] [--location IP] [--use]` — create a session, name it, and optionally make it the
 * channel's default.
 */
import { z } from 'zod';
import { ARCHIVE_MODES, type CreateSessionOptions, RESOLUTIONS } from '../api';
import { code } from '../slack/mrkdwn';
import { replyEphemeral } from '../slack/respond';
import { warning } from '../views/blocks';
import { sessionCreatedNotice } from '../views/notices';
import { defineCommand, defineSubcommand } from './command';
import { aliasName, projectFlag, projectName } from './grammar';
import { performChange } from '../interaction/change';
import { resolveProject } from '../interaction/session-ref';

const createSchema = z
  .object({
    alias: aliasName.optional(),
    relayed: z.boolean().optional(),
    archive: z.enum(ARCHIVE_MODES, { error: 'use `always` (record automatically) or `manual`' }).optional(),
    archiveName: z.string().optional(),
    archiveResolution: z.enum(RESOLUTIONS, { error: `use one of ${RESOLUTIONS.join(', ')}` }).optional(),
    e2ee: z.boolean().optional(),
    location: z.string().optional(),
    use: z.boolean().optional(),
    project: projectName.optional(),
  })
  .superRefine((args, ctx) => {
    if (args.archive !== 'always') {
      for (const key of ['archiveName', 'archiveResolution'] as const) {
        if (args[key] !== undefined) {
          ctx.addIssue({ code: 'custom', path: [key], message: 'applies only with `--archive always`' });
        }
      }
    } else if (args.relayed) {
      ctx.addIssue({ code: 'custom', path: ['relayed'], message: 'a relayed session cannot be archived; drop `--relayed` or `--archive always`' });
    }
  });

export const sessionCommand = defineCommand({
  command: '/session',
  summary: 'Create sessions.',
  subcommands: [
    defineSubcommand({
      name: 'create',
      summary: 'Create a session (routed unless --relayed), optionally with an alias',
      role: 'moderator',
      args: {
        positionals: [{ name: 'alias', label: 'alias', optional: true, description: 'a short name for the new session' }],
        flags: [
          { name: 'relayed', kind: 'boolean', description: 'clients stream to each other (no recording, broadcast, SIP or audio connector)' },
          { name: 'archive', kind: 'value', valueLabel: 'always', description: '`always` records the session automatically' },
          { name: 'archive-name', kind: 'value', valueLabel: 'name', description: 'name of the automatic recordings (up to 80 characters)' },
          { name: 'archive-resolution', kind: 'value', valueLabel: 'WxH', description: `resolution of the automatic recordings: ${RESOLUTIONS.join(', ')}` },
          { name: 'e2ee', kind: 'boolean', description: 'end-to-end encryption' },
          { name: 'location', kind: 'value', valueLabel: 'IP', description: 'an IP address near the participants, as a location hint' },
          { name: 'use', kind: 'boolean', description: 'make it this channel’s default session' },
          projectFlag,
        ],
        schema: createSchema,
        examples: ['standup --use', 'townhall --archive always --archive-name "Town hall" --archive-resolution 1280x720', 'pairing --relayed --e2ee'],
      },
      target: (args) => args.alias ?? '',
      async run(ix, args) {
        const project = await resolveProject(ix.services, ix, args.project);
        if (!project.ok) return replyEphemeral(ix, warning(project.message));
        const projectName = project.value.projectName;
        if (args.alias) {
          const existing = await ix.services.store.getAlias(ix.teamId, args.alias);
          if (existing) {
            return replyEphemeral(
              ix,
              warning(
                `The alias ${code(args.alias)} already names session ${code(existing.sessionId)}; pick another name, or remove it first with \`/video unalias ${args.alias}\`. Nothing was created.`,
              ),
            );
          }
        }
        const options: CreateSessionOptions = {
          mediaMode: args.relayed ? 'relayed' : 'routed',
          ...(args.archive ? { archiveMode: args.archive } : {}),
          ...(args.archiveName !== undefined ? { archiveName: args.archiveName } : {}),
          ...(args.archiveResolution ? { archiveResolution: args.archiveResolution } : {}),
          ...(args.e2ee ? { e2ee: true } : {}),
          ...(args.location !== undefined ? { location: args.location } : {}),
        };
        const store = ix.services.store;
        await performChange(ix, {
          command: '/session create',
          target: args.alias ? `alias ${args.alias}` : 'new session',
          projectName,
          errorContext: { operation: 'create-session' },
          call: async (video) => {
            const session = await video.sessions.create(options);
            const now = ix.services.clock();
            if (args.alias) {
              await store.putAlias({ teamId: ix.teamId, alias: args.alias, projectName, sessionId: session.sessionId, createdBy: ix.userId, createdAt: now });
            }
            if (args.use && ix.channelId) {
              await store.setChannelBinding({
                teamId: ix.teamId,
                channelId: ix.channelId,
                projectName,
                sessionId: session.sessionId,
                updatedBy: ix.userId,
                updatedAt: now,
              });
            }
            await store.touchRecentSession({ teamId: ix.teamId, projectName, sessionId: session.sessionId, usedBy: ix.userId, usedAt: now });
            return session;
          },
          notice: (session) =>
            sessionCreatedNotice(ix.userId, {
              projectName,
              sessionId: session.sessionId,
              alias: args.alias,
              mediaMode: args.relayed ? 'relayed' : 'routed',
              archiveAlways: args.archive === 'always',
              e2ee: Boolean(args.e2ee),
              boundToChannel: Boolean(args.use && ix.channelId),
            }),
        });
      },
    }),
  ],
});
