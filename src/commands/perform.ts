/**
 * The common path of every state change: call the video service, audit the outcome, then tell
 * the channel (success) or the asker (failure, as one sentence with a next step).
 */
import type { ProjectClient } from '../services';
import { type AnnounceResult, announce, replyEphemeral } from '../slack/respond';
import type { SlackMessage } from '../views/blocks';
import { type ErrorContext, auditErrorCode, errorMessage } from '../views/errors';
import { recordAudit } from '../interaction/audit';
import type { Interaction } from '../interaction/interaction';

export interface StateChange<T> {
  /** As audited, e.g. `/mute-all`. */
  command: string;
  /** As audited, e.g. `session 2_MX4… except s1,s2`. */
  target: string;
  projectName: string;
  errorContext: ErrorContext;
  call(video: ProjectClient): Promise<T>;
  /** The in-channel notice for the result. */
  notice(result: T): SlackMessage;
  /** Where the notice goes (default: the interaction's channel). */
  channelId?: string;
}

export type StateChangeResult<T> =
  | { ok: true; result: T; announced: AnnounceResult }
  | { ok: false; error: unknown; message: SlackMessage };

/**
 * Runs the change. On failure the asker gets the error sentence unless `quiet` (the caller
 * shows it elsewhere, e.g. in a modal).
 */
export async function performStateChange<T>(ix: Interaction, change: StateChange<T>, options: { quiet?: boolean } = {}): Promise<StateChangeResult<T>> {
  let result: T;
  try {
    result = await change.call(ix.services.projects.client(change.projectName));
  } catch (error) {
    ix.logger.warn('video service call failed', { command: change.command, project: change.projectName, error });
    await recordAudit(ix, {
      command: change.command,
      target: change.target,
      projectName: change.projectName,
      outcome: 'error',
      error: auditErrorCode(error),
    });
    const message = errorMessage(error, { project: change.projectName, ...change.errorContext });
    if (!options.quiet) await replyEphemeral(ix, message);
    return { ok: false, error, message };
  }
  await recordAudit(ix, { command: change.command, target: change.target, projectName: change.projectName, outcome: 'ok' });
  const announced = await announce(ix, change.notice(result), change.channelId ?? ix.channelId);
  return { ok: true, result, announced };
}
