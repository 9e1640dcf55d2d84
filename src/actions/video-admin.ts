/**
 * The buttons of the `/video-admin` cards — create, suspend, activate, delete, rotate secret —
 * each asking as the confirmation policy says (Slack's dialog on the project card; none on the
 * card answering a command, nor on Activate). On the click the role and the set-up are checked again (a
 * card can outlive both), the account-level call is made, the outcome is audited, the channel
 * is told, and the card is replaced by the result. New secrets go straight to
 * `saveProjectSecret` and never into a message, an audit record or a log line.
 */
import type { App, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { z } from 'zod';
import type { ProjectDetails, ProjectStatus } from '../api';
import { authorize } from '../interaction/authorize';
import type { Interaction } from '../interaction/interaction';
import { ADMIN_COMMAND, adminSetupProblem } from '../commands/video-admin';
import { type AdminCall, callService, finish, setProjectStatus, targetText } from '../commands/video-admin-change';
import { saveProjectSecret } from '../secrets/project-secrets';
import type { Services } from '../services';
import { replyEphemeral } from '../slack/respond';
import { type SlackMessage, warning } from '../views/blocks';
import { ACTION } from '../views/ids';
import {
  type AdminOperation,
  CreateTargetSchema,
  ProjectTargetSchema,
  type ProjectTarget,
  doneReply,
  projectCreatedNotice,
  projectCreatedReply,
  projectDeletedNotice,
  projectTarget,
  projectText,
  secretRotatedNotice,
  secretRotatedReply,
} from '../views/projects';
import { decodeValue } from '../views/values';
import { fromBlockAction } from './context';

type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & { client: App['client'] };

const STALE = 'This button’s card is from an older version of vidops; run `/video-admin` again.';

interface ButtonSpec<S extends z.ZodType> {
  actionId: string;
  subcommand: AdminOperation;
  schema: S;
  needsSecretKey: boolean;
  /** The project key the click is about (undefined for create). */
  apiKey(target: z.output<S>): string | undefined;
  target(target: z.output<S>): string;
  run(ix: Interaction, target: z.output<S>, what: AdminCall): Promise<void>;
}

function registerButton<S extends z.ZodType>(app: App, services: Services, spec: ButtonSpec<S>): void {
  app.action<BlockAction<ButtonAction>>(spec.actionId, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    const ix = fromBlockAction(services, client, body, respond, spec.actionId);
    const target = decodeValue(spec.schema, action.value);
    if (!target) return replyEphemeral(ix, warning(STALE));
    const command = `${ADMIN_COMMAND} ${spec.subcommand}`;
    const apiKey = spec.apiKey(target);
    const projectName = apiKey === undefined ? '' : (services.projects.namesForApiKey(apiKey)[0] ?? '');
    const what: AdminCall = { operation: spec.subcommand, command, target: spec.target(target), projectName, ...(apiKey !== undefined ? { apiKey } : {}) };
    const allowed = await authorize(ix, 'admin', { what: command, command, target: what.target, projectName });
    if (!allowed) return;
    const problem = adminSetupProblem(services, command, spec.needsSecretKey);
    if (problem) return replyEphemeral(ix, problem);
    await spec.run(ix, target, what);
  });
}

function statusButton(app: App, services: Services, status: ProjectStatus): void {
  registerButton(app, services, {
    actionId: status === 'SUSPENDED' ? ACTION.adminSuspendProject : ACTION.adminActivateProject,
    subcommand: status === 'SUSPENDED' ? 'suspend' : 'activate',
    schema: ProjectTargetSchema,
    needsSecretKey: false,
    apiKey: (t) => t.k,
    target: (t) => targetText({ apiKey: t.k, name: t.n }),
    run: (ix, t, what) => setProjectStatus(ix, t.k, status, what),
  });
}

/** Replaces the card when the service made a secret but did not hand it over. */
function secretMissingReply(sentence: string, apiKey: string): SlackMessage {
  return warning(
    `${sentence} but the video service did not return the new secret, so nobody has it. Rotate it again with \`/video-admin rotate-secret ${apiKey}\`.`,
  );
}

/** Replaces the card when the secret could not be stored. */
function notStoredReply(sentence: string, apiKey: string, applied: readonly string[]): SlackMessage {
  const inUse =
    applied.length > 0
      ? ' vidops signs with it for now, but after a restart it would fall back to the configured secret, which no longer works.'
      : ' Nobody has it now.';
  return warning(
    `${sentence} but the new secret could not be stored in the vidops database (it was not shown either).${inUse} Once the database works again, rotate it again with \`/video-admin rotate-secret ${apiKey}\`.`,
  );
}

export function register(app: App, services: Services): void {
  registerButton(app, services, {
    actionId: ACTION.adminCreateProject,
    subcommand: 'create',
    schema: CreateTargetSchema,
    needsSecretKey: true,
    apiKey: () => undefined,
    target: (t) => (t.n ? `new project ${t.n}` : 'new project'),
    async run(ix, t, what) {
      const done = await callService(ix, what, () => services.projects.admin().create(t.n));
      if (!done) return;
      const details: ProjectDetails = done.value;
      const created: AdminCall = { ...what, target: targetText(details), apiKey: details.apiKey };
      const sentence = `Project ${projectText(details)} was created,`;
      if (details.secret === undefined) {
        return finish(ix, created, {
          notice: projectCreatedNotice(ix.userId, details),
          reply: secretMissingReply(sentence, details.apiKey),
          auditError: 'created; no secret in the response',
        });
      }
      const saved = await saveProjectSecret(services, details.apiKey, details.secret);
      if (!saved.stored) {
        ix.logger.error('the secret of a new project could not be stored', { apiKey: details.apiKey, error: (saved.error as Error).message });
        return finish(ix, created, {
          notice: projectCreatedNotice(ix.userId, details),
          reply: notStoredReply(sentence, details.apiKey, saved.applied),
          auditError: 'created; the new secret could not be stored',
        });
      }
      await finish(ix, created, { notice: projectCreatedNotice(ix.userId, details), reply: projectCreatedReply(details, saved.name) });
    },
  });

  statusButton(app, services, 'SUSPENDED');
  statusButton(app, services, 'ACTIVE');

  registerButton(app, services, {
    actionId: ACTION.adminDeleteProject,
    subcommand: 'delete',
    schema: ProjectTargetSchema,
    needsSecretKey: false,
    apiKey: (t) => t.k,
    target: (t) => targetText({ apiKey: t.k, name: t.n }),
    async run(ix, t: ProjectTarget, what) {
      const done = await callService(ix, what, () => services.projects.admin().delete(t.k));
      if (!done) return;
      const usedBy = services.projects.namesForApiKey(t.k);
      await finish(ix, what, {
        notice: projectDeletedNotice(ix.userId, t, usedBy),
        reply: doneReply(`Project ${projectText({ apiKey: t.k, ...(t.n ? { name: t.n } : {}) })} was deleted.`),
      });
    },
  });

  registerButton(app, services, {
    actionId: ACTION.adminRotateSecret,
    subcommand: 'rotate-secret',
    schema: ProjectTargetSchema,
    needsSecretKey: true,
    apiKey: (t) => t.k,
    target: (t) => targetText({ apiKey: t.k, name: t.n }),
    async run(ix, t, what) {
      const done = await callService(ix, what, () => services.projects.admin().refreshSecret(t.k));
      if (!done) return;
      const details = done.value;
      const rotated = projectTarget({ apiKey: t.k, name: details.name ?? t.n });
      const sentence = `The API secret of project ${projectText({ apiKey: t.k, ...(rotated.n ? { name: rotated.n } : {}) })} was rotated,`;
      if (details.secret === undefined) {
        return finish(ix, what, {
          notice: secretRotatedNotice(ix.userId, rotated, []),
          reply: secretMissingReply(sentence, t.k),
          auditError: 'rotated; no secret in the response',
        });
      }
      // Applied to the live clients first, so vidops keeps working whatever happens next.
      const saved = await saveProjectSecret(services, t.k, details.secret);
      if (!saved.stored) {
        ix.logger.error('a rotated project secret could not be stored', { apiKey: t.k, applied: saved.applied, error: (saved.error as Error).message });
        return finish(ix, what, {
          notice: secretRotatedNotice(ix.userId, rotated, saved.applied),
          reply: notStoredReply(sentence, t.k, saved.applied),
          auditError: 'rotated; the new secret could not be stored',
        });
      }
      await finish(ix, what, { notice: secretRotatedNotice(ix.userId, rotated, saved.applied), reply: secretRotatedReply(rotated, saved.applied, saved.name) });
    },
  });
}
