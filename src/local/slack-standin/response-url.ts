/**
 * What a post to a `response_url` does, as Slack applies it: replace or delete the original
 * message, or add a new one — ephemeral unless `response_type: 'in_channel'`. A URL takes at most
 * five posts, like Slack's.
 */
import { LOCAL_BOT } from '../identities';
import type { Message } from './types';
import type { ResponseTarget, Workspace } from './workspace';

export const RESPONSE_URL_MAX_USES = 5;

export interface ResponseBody {
  text?: unknown;
  blocks?: unknown;
  response_type?: unknown;
  replace_original?: unknown;
  delete_original?: unknown;
  thread_ts?: unknown;
}

export type ResponseOutcome = { ok: true; message?: Message } | { ok: false; status: number; error: string };

const truthy = (value: unknown): boolean => value === true || value === 'true';

export function applyResponse(workspace: Workspace, target: ResponseTarget & { uses: number }, body: ResponseBody): ResponseOutcome {
  if (target.uses >= RESPONSE_URL_MAX_USES) return { ok: false, status: 404, error: 'used_url' };
  target.uses++;
  const original = target.originalTs ? workspace.find(target.channel, target.originalTs) : undefined;
  if (truthy(body.delete_original)) {
    if (original) workspace.remove(original.channel, original.ts);
    return { ok: true };
  }
  const blocks = Array.isArray(body.blocks) ? body.blocks : undefined;
  const text = typeof body.text === 'string' ? body.text : '';
  if (truthy(body.replace_original) && original) {
    return { ok: true, message: workspace.update(original.channel, original.ts, { text, ...(blocks ? { blocks } : {}) }) };
  }
  if (body.text === undefined && blocks === undefined) return { ok: false, status: 400, error: 'no_text' };
  const threadTs = typeof body.thread_ts === 'string' && body.thread_ts ? body.thread_ts : target.threadTs;
  const message = workspace.post(target.channel, {
    user: LOCAL_BOT.userId,
    bot_id: LOCAL_BOT.botId,
    text,
    ...(blocks ? { blocks } : {}),
    ...(threadTs ? { thread_ts: threadTs } : {}),
    ...(body.response_type === 'in_channel' ? {} : { ephemeral: true as const }),
  });
  // A command's later replies replace the last one it posted; an action's replace the clicked message.
  if (target.followsLatest) target.originalTs = message.ts;
  return { ok: true, message };
}
