/**
 * `/video-admin projects|project|create|suspend|activate|delete|rotate-secret` — project
 * administration with the account-level credentials (admins only). Reading answers at once;
 * every change answers with a card whose button, behind Slack's confirm dialog, makes it
 * (src/actions/video-admin.ts). New secrets are never shown: see src/secrets/README.md.
 */
import { z } from 'zod';
import type { ProjectDetails, ProjectStatus } from '../api';
import { projectSecretName } from '../secrets/project-secrets';
import type { Services } from '../services';
import { replyEphemeral } from '../slack/respond';
import type { SlackMessage } from '../views/blocks';
import { textMessage } from '../views/blocks';
import {
  accountMissingMessage,
  adminErrorMessage,
  createConfirmCard,
  deleteConfirmCard,
  projectCard,
  projectListMessage,
  projectText,
  rotateConfirmCard,
  secretKeyMissingMessage,
  statusConfirmCard,
} from '../views/projects';
import type { Interaction } from '../interaction/interaction';
import type { CommandInvocation } from './command';
import { defineCommand, defineSubcommand } from './command';
import { identifier } from './grammar';
import { setProjectStatus, targetText } from './video-admin-change';
import { confirmationFor } from '../views/confirmation-policy';

export const ADMIN_COMMAND = '/video-admin';

/**
 * Why project administration cannot run here, as the message to show; undefined when it can.
 * `create` and `rotate-secret` also need VIDOPS_SECRET_KEY: they receive a secret to store.
 */
export function adminSetupProblem(services: Pick<Services, 'projects' | 'secretBox'>, what: string, needsSecretKey: boolean): SlackMessage | undefined {
  if (!services.projects.hasAccount()) return accountMissingMessage(what);
  if (needsSecretKey && !services.secretBox) return secretKeyMissingMessage(what);
  return undefined;
}

/** A project named as vidops knows it (`prod`) stands for its API key; anything else is a key. */
export function resolveProjectKey(services: Pick<Services, 'projects'>, word: string): string {
  return services.projects.configured(word)?.apiKey ?? word;
}

/** Reads one project; on failure tells the asker (one sentence) and returns undefined. */
export async function readProject(ix: Interaction, apiKey: string): Promise<ProjectDetails | undefined> {
  try {
    return await ix.services.projects.admin().get(apiKey);
  } catch (error) {
    ix.logger.warn('reading a project failed', { apiKey, error });
    await replyEphemeral(ix, adminErrorMessage(error, 'get', apiKey));
    return undefined;
  }
}

const projectArg = {
  name: 'project',
  label: 'key',
  description: 'the project’s API key, or the name vidops knows it by (e.g. prod)',
};
const projectSchema = z.object({ project: identifier('a project API key or name') });
const projectTargetText = (args: { project: string }) => `project ${args.project}`;

/**
 * Runs `then` unless the setup is missing, which is explained instead. The role is checked again
 * for what is touched, as the buttons check it: a configured project by its name, anything else
 * (another project's key, the account) with global grants only.
 */
async function withSetup(ix: CommandInvocation, subcommand: string, needsSecretKey: boolean, then: () => Promise<void>, projectWord?: string): Promise<void> {
  const apiKey = projectWord === undefined ? undefined : resolveProjectKey(ix.services, projectWord);
  await ix.gate?.(apiKey === undefined ? '' : (ix.services.projects.namesForApiKey(apiKey)[0] ?? ''));
  const problem = adminSetupProblem(ix.services, `${ADMIN_COMMAND} ${subcommand}`, needsSecretKey);
  if (problem) return replyEphemeral(ix, problem);
  return then();
}

const projectsSub = defineSubcommand({
  name: 'projects',
  summary: 'List the account’s projects: name, API key, status, created',
  role: 'admin',
  args: { positionals: [], flags: [], schema: z.object({}), examples: [''] },
  target: () => 'projects',
  async run(ix) {
    await withSetup(ix, 'projects', false, async () => {
      let projects: ProjectDetails[];
      try {
        projects = await ix.services.projects.admin().list();
      } catch (error) {
        ix.logger.warn('listing projects failed', { error });
        return replyEphemeral(ix, adminErrorMessage(error, 'list'));
      }
      await replyEphemeral(
        ix,
        projectListMessage(projects, (apiKey) => ix.services.projects.namesForApiKey(apiKey)),
      );
    });
  },
});

const projectSub = defineSubcommand({
  name: 'project',
  summary: 'Show one project, with buttons to suspend or activate it, rotate its secret or delete it',
  role: 'admin',
  args: { positionals: [projectArg], flags: [], schema: projectSchema, examples: ['46123456', 'prod'] },
  target: projectTargetText,
  async run(ix, args) {
    await withSetup(
      ix,
      'project',
      false,
      async () => {
        const apiKey = resolveProjectKey(ix.services, args.project);
        const details = await readProject(ix, apiKey);
        if (!details) return;
        await replyEphemeral(ix, projectCard(details, { usedBy: ix.services.projects.namesForApiKey(details.apiKey) }));
      },
      args.project,
    );
  },
});

const createSub = defineSubcommand({
  name: 'create',
  summary: 'Create a project (after a confirmation); its secret is stored encrypted, never shown',
  role: 'admin',
  args: {
    positionals: [{ name: 'name', label: 'name', optional: true, description: 'the project’s name, in quotes when it has spaces (at most 100 characters)' }],
    flags: [],
    schema: z.object({
      name: z.string().trim().min(1, { error: 'a project name cannot be empty' }).max(100, { error: 'a project name has at most 100 characters' }).optional(),
    }),
    examples: ['"Support calls"', ''],
  },
  target: (args) => (args.name ? `new project ${args.name}` : 'new project'),
  async run(ix, args) {
    await withSetup(ix, 'create', true, () => replyEphemeral(ix, createConfirmCard(args.name, projectSecretName('<its API key>'))));
  },
});

function statusSub(status: ProjectStatus) {
  const name: 'suspend' | 'activate' = status === 'SUSPENDED' ? 'suspend' : 'activate';
  return defineSubcommand({
    name,
    summary:
      status === 'SUSPENDED'
        ? 'Suspend a project: its API key and sessions stop working (after a confirmation)'
        : 'Activate a suspended project again (at once: suspending it again undoes it)',
    role: 'admin',
    args: { positionals: [projectArg], flags: [], schema: projectSchema, examples: ['46123456'] },
    target: projectTargetText,
    async run(ix, args) {
      await withSetup(
        ix,
        name,
        false,
        async () => {
          const details = await readProject(ix, resolveProjectKey(ix.services, args.project));
          if (!details) return;
          if (details.status === status) {
            const state = status === 'SUSPENDED' ? 'already suspended' : 'already active';
            return replyEphemeral(ix, textMessage(`Project ${projectText(details)} is ${state}; nothing to do.`));
          }
          const usedBy = ix.services.projects.namesForApiKey(details.apiKey);
          if (confirmationFor(status === 'SUSPENDED' ? 'project-suspend' : 'project-activate', 'typed') === 'none') {
            const what = {
              operation: name,
              command: `${ADMIN_COMMAND} ${name}`,
              target: targetText(details),
              projectName: usedBy[0] ?? '',
              apiKey: details.apiKey,
            };
            return setProjectStatus(ix, details.apiKey, status, what, { typed: true });
          }
          await replyEphemeral(ix, statusConfirmCard(details, status, usedBy));
        },
        args.project,
      );
    },
  });
}

const deleteSub = defineSubcommand({
  name: 'delete',
  summary: 'Delete a project for good (after a confirmation)',
  role: 'admin',
  args: { positionals: [projectArg], flags: [], schema: projectSchema, examples: ['46123456'] },
  target: projectTargetText,
  async run(ix, args) {
    await withSetup(
      ix,
      'delete',
      false,
      async () => {
        const details = await readProject(ix, resolveProjectKey(ix.services, args.project));
        if (!details) return;
        await replyEphemeral(ix, deleteConfirmCard(details, ix.services.projects.namesForApiKey(details.apiKey)));
      },
      args.project,
    );
  },
});

const rotateSub = defineSubcommand({
  name: 'rotate-secret',
  summary: 'Give a project a new API secret (after a confirmation); vidops keeps it encrypted and switches to it',
  role: 'admin',
  args: { positionals: [projectArg], flags: [], schema: projectSchema, examples: ['46123456', 'prod'] },
  target: projectTargetText,
  async run(ix, args) {
    await withSetup(
      ix,
      'rotate-secret',
      true,
      async () => {
        const details = await readProject(ix, resolveProjectKey(ix.services, args.project));
        if (!details) return;
        const usedBy = ix.services.projects.namesForApiKey(details.apiKey);
        await replyEphemeral(ix, rotateConfirmCard(details, usedBy, projectSecretName(details.apiKey)));
      },
      args.project,
    );
  },
});

export const videoAdminCommand = defineCommand({
  command: ADMIN_COMMAND,
  summary: 'Project administration with the account credentials (admins only).',
  subcommands: [projectsSub, projectSub, createSub, statusSub('SUSPENDED'), statusSub('ACTIVE'), deleteSub, rotateSub],
});
