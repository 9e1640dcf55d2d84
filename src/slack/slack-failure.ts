/**
 * Opening a form within the life of its trigger, and what a person reads when a command or click
 * ended on a Slack failure (after the Web API client's retries).
 */
import type { webApi } from '@slack/bolt';
import { warning } from '../views/blocks';
import { OPEN_FORM_WITHIN_MS, slackFailureReason } from './failure-reason';
import { type Audience, replyEphemeral } from './respond';

/** Slack did not open a form (views.open failed or outlived its trigger). */
export class FormNotOpenedError extends Error {
  override readonly name = 'FormNotOpenedError';
  readonly code = 'vidops_form_not_opened';
  constructor(
    readonly reason: string,
    cause: unknown,
  ) {
    super(`the form did not open: ${reason}`, { cause });
  }
}

class TriggerWindowPassedError extends Error {
  readonly code = 'vidops_trigger_window_passed';
}

type OpenArguments = Parameters<webApi.WebClient['views']['open']>[0];
type OpenResponse = Awaited<ReturnType<webApi.WebClient['views']['open']>>;

/**
 * views.open within the trigger's life: waiting on the client's retries and Retry-After beyond it
 * only delays the news that the form did not open. A call still running then goes on in the
 * background (Slack refuses its expired trigger). Any failure becomes a FormNotOpenedError.
 */
export async function openForm(client: webApi.WebClient, args: OpenArguments, withinMs = OPEN_FORM_WITHIN_MS): Promise<OpenResponse> {
  const call = client.views.open(args);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TriggerWindowPassedError(`views.open took over ${withinMs} ms`)), withinMs);
  });
  try {
    return await Promise.race([call, deadline]);
  } catch (error) {
    throw new FormNotOpenedError(slackFailureReason(error) ?? 'an unexpected error', error);
  } finally {
    clearTimeout(timer);
    call.catch(() => undefined);
  }
}

/** The sentence for a person whose command or click ended on a Slack failure; undefined when it was not Slack's. */
export function slackFailureSentence(err: unknown, what: string): string | undefined {
  if (err instanceof FormNotOpenedError) return `The form did not open (${err.reason}); nothing was changed. Try again in a moment.`;
  const reason = slackFailureReason(err);
  return reason && `${what} could not finish (${reason}). Try again in a moment.`;
}

/**
 * For clicks and shortcuts, which no command catch-all answers: opens the form, or tells the
 * person why it did not open (in the conversation, else by direct message) and resolves undefined.
 */
export async function openFormOrSay(to: Audience, args: OpenArguments): Promise<OpenResponse | undefined> {
  try {
    return await openForm(to.client, args);
  } catch (error) {
    to.logger.warn('a form did not open', { error });
    await replyEphemeral(to, warning(slackFailureSentence(error, 'It') ?? 'The form did not open.')).catch((replyError: unknown) =>
      to.logger.warn('could not say that the form did not open', { error: replyError }),
    );
    return undefined;
  }
}
