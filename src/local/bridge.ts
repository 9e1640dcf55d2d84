/**
 * The bridge from the page to the app: each click, submit or typed command becomes the request
 * Slack would send — built in payloads.ts, signed with the app's signing secret and a fresh
 * timestamp, posted to the app's `/slack/events` (the production HTTPReceiver) — and the app's
 * answer is applied as Slack applies it (command replies, `response_action`s, options).
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from '../log';
import { resolveConversation } from './identities';
import {
  appHomeOpened,
  blockSuggestion,
  globalShortcut,
  messageBlockActions,
  messageShortcut,
  slashCommandFields,
  splitCommandLine,
  viewBlockActions,
  viewClosed,
  viewSubmission,
} from './payloads';
import type { ActionBody, CloseBody, CommandBody, OptionsBody, ShortcutBody, SubmitBody } from './page-api';
import { type SignedRequest, signEvent, signForm, signInteraction } from './signing';
import { applyResponse } from './slack-standin/response-url';
import type { ResponseTarget, Workspace } from './slack-standin/workspace';

/** Slack gives up on an app that has not answered within 3 seconds. */
export const SLACK_ANSWER_TIMEOUT_MS = 3_000;

export type BridgeResult<T = object> = ({ ok: true } & T) | { ok: false; error: string };

export interface BridgeOptions {
  workspace: Workspace;
  signingSecret: string;
  /** The app's events URL (`…/slack/events`); known once the app listens. */
  appEventsUrl: () => string;
  /** The stand-in's base URL, for response URLs. */
  baseUrl: () => string;
  /** The slash commands the app registers (manifest.yml). */
  commands: readonly string[];
  logger: Logger;
  now?: () => number;
}

interface AppAnswer {
  status: number;
  body: string;
}

export class AppBridge {
  private readonly now: () => number;

  constructor(private readonly settings: BridgeOptions) {
    this.now = settings.now ?? Date.now;
  }

  private get workspace(): Workspace {
    return this.settings.workspace;
  }

  private responseUrl(target: ResponseTarget): string {
    return `${this.settings.baseUrl()}/response/${this.workspace.newResponseTarget(target)}`;
  }

  private async send(kind: string, request: SignedRequest): Promise<AppAnswer | { error: string }> {
    try {
      const res = await fetch(this.settings.appEventsUrl(), {
        method: 'POST',
        headers: request.headers,
        body: request.body,
        signal: AbortSignal.timeout(SLACK_ANSWER_TIMEOUT_MS),
      });
      const body = await res.text();
      if (res.status !== 200) {
        this.settings.logger.warn('the app refused a request from the stand-in', { kind, status: res.status });
        return { error: `the app answered HTTP ${res.status}` };
      }
      return { status: res.status, body };
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      this.settings.logger.warn('could not reach the app', { kind, timedOut });
      return {
        error: timedOut
          ? `the app did not answer within ${SLACK_ANSWER_TIMEOUT_MS / 1000} seconds (Slack shows operation_timeout)`
          : 'the app could not be reached',
      };
    }
  }

  async command(input: CommandBody): Promise<BridgeResult> {
    const conversation = resolveConversation(input.channel);
    if (!conversation) return { ok: false, error: `there is no channel ${input.channel}` };
    const line = splitCommandLine(input.text);
    if (!line) return { ok: false, error: 'type a slash command, such as /video help' };
    if (!this.settings.commands.includes(line.command)) {
      return { ok: false, error: `${line.command} is not a command of vidops; try /video help` };
    }
    const target: ResponseTarget = { channel: conversation.id, followsLatest: true };
    const responseId = this.workspace.newResponseTarget(target);
    const request = signForm(
      this.settings.signingSecret,
      slashCommandFields({
        ...line,
        channel: conversation.id,
        responseUrl: `${this.settings.baseUrl()}/response/${responseId}`,
        triggerId: this.workspace.newTrigger(),
      }),
    );
    const answer = await this.send('slash_command', request);
    if ('error' in answer) return { ok: false, error: answer.error };
    const reply = parseReply(answer.body);
    if (reply) {
      const outcome = applyResponse(this.workspace, this.workspace.responseTarget(responseId)!, reply);
      if (!outcome.ok) return { ok: false, error: `the app's reply was refused: ${outcome.error}` };
    }
    return { ok: true };
  }

  async action(input: ActionBody): Promise<BridgeResult> {
    const { container } = input;
    let payload: Record<string, unknown>;
    if (container.type === 'message') {
      const message = this.workspace.find(container.channel, container.ts);
      if (!message) return { ok: false, error: 'that message is gone' };
      payload = messageBlockActions({
        message,
        choice: input,
        values: input.values ?? {},
        responseUrl: this.responseUrl({ channel: message.channel, ...(message.thread_ts ? { threadTs: message.thread_ts } : {}), originalTs: message.ts }),
        triggerId: this.workspace.newTrigger(),
        now: this.now(),
      });
    } else {
      const view = this.workspace.findView(container.viewId);
      if (!view) return { ok: false, error: 'that view is closed' };
      if (input.values) this.workspace.setViewState(view, input.values);
      payload = viewBlockActions({ view, choice: input, triggerId: this.workspace.newTrigger(), now: this.now() });
    }
    const answer = await this.send('block_actions', signInteraction(this.settings.signingSecret, payload));
    return 'error' in answer ? { ok: false, error: answer.error } : { ok: true };
  }

  async submit(input: SubmitBody): Promise<BridgeResult<{ errors?: Record<string, string> }>> {
    const view = this.workspace.findView(input.viewId);
    if (!view || view.type !== 'modal') return { ok: false, error: 'that form is closed' };
    // Slack shows only the top of the stack, so only it can be submitted.
    if (this.workspace.modals().at(-1)?.id !== view.id) return { ok: false, error: 'only the form on top can be submitted' };
    this.workspace.setViewState(view, input.values ?? {});
    const answer = await this.send('view_submission', signInteraction(this.settings.signingSecret, viewSubmission(view, this.workspace.newTrigger())));
    if ('error' in answer) return { ok: false, error: answer.error };
    const reply = parseJson(answer.body);
    switch (reply?.response_action) {
      case 'errors': {
        const errors = isStringRecord(reply.errors) ? reply.errors : {};
        this.workspace.setViewErrors(view, errors);
        return { ok: true, errors };
      }
      case 'update':
        if (!isObject(reply.view)) return { ok: false, error: 'the app answered response_action update without a view' };
        this.workspace.replaceView(view, reply.view);
        return { ok: true };
      case 'push':
        if (!isObject(reply.view)) return { ok: false, error: 'the app answered response_action push without a view' };
        if (!this.workspace.pushModal(reply.view)) return { ok: false, error: 'push_limit_reached' };
        return { ok: true };
      case 'clear':
        this.workspace.clearModals();
        return { ok: true };
      default:
        // An empty acknowledgement closes the submitted view; the ones below it show again.
        this.workspace.closeModal(view.id);
        return { ok: true };
    }
  }

  async close(input: CloseBody): Promise<BridgeResult> {
    const view = this.workspace.findView(input.viewId);
    if (!view || view.type !== 'modal') return { ok: false, error: 'that form is closed' };
    const clears = view.clear_on_close === true;
    if (clears) this.workspace.clearModals();
    else this.workspace.closeModal(view.id);
    if (!view.notify_on_close) return { ok: true };
    const answer = await this.send('view_closed', signInteraction(this.settings.signingSecret, viewClosed(view, clears)));
    return 'error' in answer ? { ok: false, error: answer.error } : { ok: true };
  }

  async suggestions(input: OptionsBody): Promise<BridgeResult<Record<string, unknown>>> {
    const view = input.viewId ? this.workspace.findView(input.viewId) : undefined;
    const message = input.channel && input.ts ? this.workspace.find(input.channel, input.ts) : undefined;
    if (input.viewId && !view) return { ok: false, error: 'that view is closed' };
    const payload = blockSuggestion({
      actionId: input.actionId,
      blockId: input.blockId,
      value: input.value ?? '',
      ...(view ? { view } : {}),
      ...(message ? { message } : {}),
    });
    const answer = await this.send('block_suggestion', signInteraction(this.settings.signingSecret, payload));
    if ('error' in answer) return { ok: false, error: answer.error };
    const body = parseJson(answer.body) ?? {};
    return {
      ok: true,
      ...(Array.isArray(body.options) ? { options: body.options } : {}),
      ...(Array.isArray(body.option_groups) ? { option_groups: body.option_groups } : {}),
      ...(!Array.isArray(body.options) && !Array.isArray(body.option_groups) ? { options: [] } : {}),
    };
  }

  async home(): Promise<BridgeResult> {
    const envelope = appHomeOpened(this.workspace.homeView(), `Ev${randomBytes(5).toString('hex').toUpperCase()}`, this.now());
    const answer = await this.send('app_home_opened', signEvent(this.settings.signingSecret, envelope));
    return 'error' in answer ? { ok: false, error: answer.error } : { ok: true };
  }

  async shortcut(input: ShortcutBody): Promise<BridgeResult> {
    const triggerId = this.workspace.newTrigger();
    let payload: Record<string, unknown>;
    if (input.channel && input.ts) {
      const message = this.workspace.find(input.channel, input.ts);
      if (!message) return { ok: false, error: 'that message is gone' };
      const responseUrl = this.responseUrl({ channel: message.channel, ...(message.thread_ts ? { threadTs: message.thread_ts } : {}), originalTs: message.ts });
      payload = messageShortcut(input.callbackId, message, triggerId, responseUrl, this.now());
    } else {
      payload = globalShortcut(input.callbackId, triggerId, this.now());
    }
    const answer = await this.send('shortcut', signInteraction(this.settings.signingSecret, payload));
    return 'error' in answer ? { ok: false, error: answer.error } : { ok: true };
  }
}

function parseJson(text: string): Record<string, unknown> | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A command's immediate answer: a JSON message, or plain text Slack shows as an ephemeral. */
function parseReply(text: string): Record<string, unknown> | undefined {
  if (!text.trim()) return undefined;
  const json = parseJson(text);
  if (json) return json.text === undefined && json.blocks === undefined ? undefined : json;
  return { text, response_type: 'ephemeral' };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return isObject(value) && Object.values(value).every((v) => typeof v === 'string');
}
