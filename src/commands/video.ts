/**
 * `/video help|alias|unalias|aliases|use|audit` — the app itself: help, names for sessions, the
 * channel's defaults, and the audit log. (`/video help` is answered by the command runtime,
 * which knows every command.)
 */
import { z } from 'zod';
import { code } from '../slack/mrkdwn';
import { announce, replyEphemeral } from '../slack/respond';
import { warning } from '../views/blocks';
import { auditListMessage } from '../views/audit';
import { aliasRemovedNotice, aliasSetNotice, aliasesMessage, channelBoundNotice, channelDefaultsMessage } from '../views/channel';
import { recordAudit } from '../interaction/audit';
import { defineCommand, defineSubcommand } from './command';
import { aliasName, projectFlag, projectName, sessionRef } from './grammar';
import { looksLikeSessionId, resolveProject, resolveSession } from '../interaction/session-ref';
import { unwatchSub, watchSub, watchesSub } from './watch';

const aliasSub = defineSubcommand({
  name: 'alias',
  summary: 'Name a session, so commands can use the name instead of the ID',
  role: 'moderator',
  args: {
    positionals: [
      { name: 'name', label: 'name', description: 'the alias: letters, digits, “.”, “-”, “_” (at most 40)' },
      { name: 'sessionId', label: 'session-id', description: 'the session it names' },
    ],
    flags: [projectFlag],
    schema: z.object({ name: aliasName, sessionId: sessionRef, project: projectName.optional() }),
    examples: ['standup 2_MX40NzEyfn5-abc', 'townhall 2_MX40NzEyfn5-def --project prod'],
  },
  target: (args) => `alias ${args.name}`,
  async run(ix, args) {
    if (!looksLikeSessionId(args.sessionId)) {
      return replyEphemeral(
        ix,
        warning(`${code(args.sessionId)} does not look like a session ID (they are long, like \`2_MX40NzEyfn5-…\`). Nothing was changed.`),
      );
    }
    const project = await resolveProject(ix.services, ix, args.project);
    if (!project.ok) return replyEphemeral(ix, warning(project.message));
    const store = ix.services.store;
    const previous = await store.getAlias(ix.teamId, args.name);
    const alias = {
      teamId: ix.teamId,
      alias: args.name,
      projectName: project.value.projectName,
      sessionId: args.sessionId,
      createdBy: ix.userId,
      createdAt: ix.services.clock(),
    };
    await store.putAlias(alias);
    await recordAudit(ix, { command: '/video alias', target: `${args.name} → ${args.sessionId}`, projectName: alias.projectName, outcome: 'ok' });
    await announce(ix, aliasSetNotice(ix.userId, alias, previous));
  },
});

const unaliasSub = defineSubcommand({
  name: 'unalias',
  summary: 'Remove an alias (the session itself is not touched)',
  role: 'moderator',
  args: {
    positionals: [{ name: 'name', label: 'name', description: 'the alias to remove' }],
    flags: [],
    schema: z.object({ name: aliasName }),
    examples: ['standup'],
  },
  target: (args) => `alias ${args.name}`,
  async run(ix, args) {
    const store = ix.services.store;
    const existing = await store.getAlias(ix.teamId, args.name);
    if (!existing) return replyEphemeral(ix, warning(`There is no alias ${code(args.name)}; \`/video aliases\` lists them.`));
    await store.deleteAlias(ix.teamId, args.name);
    await recordAudit(ix, {
      command: '/video unalias',
      target: `${existing.alias} (was ${existing.sessionId})`,
      projectName: existing.projectName,
      outcome: 'ok',
    });
    await announce(ix, aliasRemovedNotice(ix.userId, existing));
  },
});

const aliasesSub = defineSubcommand({
  name: 'aliases',
  summary: 'List the session aliases',
  role: 'viewer',
  args: {
    positionals: [{ name: 'prefix', label: 'prefix', optional: true, description: 'only aliases starting with this' }],
    flags: [],
    schema: z.object({ prefix: z.string().max(40).optional() }),
    examples: ['', 'stand'],
  },
  async run(ix, args) {
    await replyEphemeral(ix, aliasesMessage(await ix.services.store.listAliases(ix.teamId, args.prefix?.toLowerCase(), 100)));
  },
});

const useSub = defineSubcommand({
  name: 'use',
  summary: 'Show or set this channel’s default session and project',
  role: (args) => (args.session !== undefined || args.project !== undefined ? 'moderator' : 'viewer'),
  roleLabel: 'viewer to show, moderator to change',
  args: {
    positionals: [{ name: 'session', label: 'session', optional: true, description: 'session ID or alias to use by default here' }],
    flags: [projectFlag],
    schema: z.object({ session: sessionRef.optional(), project: projectName.optional() }),
    examples: ['standup', '--project prod', ''],
  },
  target: (args) => args.session ?? (args.project ? `project ${args.project}` : ''),
  async run(ix, args) {
    const store = ix.services.store;
    if (!ix.channelId) return replyEphemeral(ix, warning('Run this in the channel whose defaults you want to see or set.'));
    const scope = { teamId: ix.teamId, channelId: ix.channelId, userId: ix.userId, gate: ix.gate };
    if (args.session === undefined && args.project === undefined) {
      const project = await resolveProject(ix.services, scope);
      const binding = await store.getChannelBinding(ix.teamId, ix.channelId);
      if (!project.ok) return replyEphemeral(ix, warning(project.message));
      return replyEphemeral(
        ix,
        channelDefaultsMessage({ projectName: project.value.projectName, projectSource: project.value.source, sessionId: binding?.sessionId }),
      );
    }
    const now = ix.services.clock();
    if (args.session === undefined) {
      const project = await resolveProject(ix.services, scope, args.project);
      if (!project.ok) return replyEphemeral(ix, warning(project.message));
      const binding = await store.getChannelBinding(ix.teamId, ix.channelId);
      const keepSession = binding?.sessionId !== undefined && binding.projectName === project.value.projectName;
      await store.setChannelBinding({
        teamId: ix.teamId,
        channelId: ix.channelId,
        projectName: project.value.projectName,
        sessionId: keepSession ? undefined : null,
        updatedBy: ix.userId,
        updatedAt: now,
      });
      await recordAudit(ix, { command: '/video use', target: `project ${project.value.projectName}`, projectName: project.value.projectName, outcome: 'ok' });
      await announce(ix, channelBoundNotice(ix.userId, { projectName: project.value.projectName }));
      return;
    }
    const resolved = await resolveSession(ix.services, scope, args.session, args.project);
    if (!resolved.ok) return replyEphemeral(ix, warning(resolved.message));
    const s = resolved.value;
    await store.setChannelBinding({
      teamId: ix.teamId,
      channelId: ix.channelId,
      projectName: s.projectName,
      sessionId: s.sessionId,
      updatedBy: ix.userId,
      updatedAt: now,
    });
    await recordAudit(ix, { command: '/video use', target: `session ${s.sessionId}`, projectName: s.projectName, outcome: 'ok' });
    await announce(ix, channelBoundNotice(ix.userId, s));
  },
});

const auditSub = defineSubcommand({
  name: 'audit',
  summary: 'Show the latest audited actions',
  role: 'admin',
  args: {
    positionals: [],
    flags: [{ name: 'limit', kind: 'value', valueLabel: 'n', description: 'how many entries (1–50, default 20)' }],
    schema: z.object({
      limit: z.coerce
        .number({ error: 'give a whole number' })
        .int({ error: 'give a whole number' })
        .min(1, { error: 'at least 1' })
        .max(50, { error: 'at most 50' })
        .optional(),
    }),
    examples: ['', '--limit 50'],
  },
  async run(ix, args) {
    await replyEphemeral(ix, auditListMessage(await ix.services.store.listAudit(ix.teamId, args.limit ?? 20)));
  },
});

export const videoCommand = defineCommand({
  command: '/video',
  summary: 'Help, session aliases, the channel’s defaults, watches and the audit log.',
  subcommands: [aliasSub, unaliasSub, aliasesSub, useSub, auditSub, watchSub, unwatchSub, watchesSub],
});
