/**
 * "Check" on the answer given when the video service did not answer in time (still-waiting.ts):
 * asks it again — a read is typed again, a change's resource is read back — with the role of
 * whoever clicks, where they click. What it finds replaces the answer it checks.
 */
import type { App, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { VideoNotFoundError } from '../api';
import { typeAgain } from '../commands';
import { authorize } from '../interaction/authorize';
import type { Interaction } from '../interaction/interaction';
import type { Services } from '../services';
import { type RespondFn, replyEphemeral } from '../slack/respond';
import { type SlackMessage, warning } from '../views/blocks';
import { describeError } from '../views/errors';
import { ACTION } from '../views/ids';
import {
  type CheckValue,
  CheckValueSchema,
  archiveCheckMessage,
  recordingsCheckMessage,
  broadcastCheckMessage,
  sessionCheckMessage,
  streamCheckMessage,
  streamGoneMessage,
} from '../views/still-waiting';
import { decodeValue } from '../views/values';
import { fromBlockAction } from './context';

type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & { client: App['client'] };

const STALE = 'This button is from an older version of vidops; run the command again.';

/** The first answer replaces the message the button is on; later ones follow it. */
function replacingFirst(respond: RespondFn): RespondFn {
  let first = true;
  return (message) => {
    const replace = first && message.delete_original !== true;
    first = false;
    return respond(replace ? { ...message, replace_original: true } : message);
  };
}

function auditTarget(value: Exclude<CheckValue, { k: 'rerun' }>): string {
  switch (value.k) {
    case 'archive':
      return `recording ${value.r}`;
    case 'broadcast':
      return `broadcast ${value.b}`;
    case 'stream':
      return `stream ${value.t} in session ${value.s}`;
    case 'session':
      return `session ${value.s}`;
    case 'recordings':
      return `recordings of session ${value.s}`;
  }
}

/** Reads back what a change touched; the service's failures in one sentence. */
async function readBack(ix: Interaction, value: Exclude<CheckValue, { k: 'rerun' }>): Promise<SlackMessage> {
  const video = ix.services.projects.client(value.p);
  try {
    switch (value.k) {
      case 'archive':
        return archiveCheckMessage(value.r, (await video.archives.get(value.r)).status);
      case 'broadcast':
        return broadcastCheckMessage(value.b, (await video.broadcasts.get(value.b)).status);
      case 'stream':
        return streamCheckMessage(value, await video.streams.get(value.s, value.t));
      case 'session':
        return sessionCheckMessage(value, (await video.streams.list(value.s)).items);
      case 'recordings':
        return recordingsCheckMessage(value, (await video.archives.list({ sessionId: value.s, count: 50 })).items);
    }
  } catch (error) {
    if (error instanceof VideoNotFoundError && value.k === 'stream') return streamGoneMessage(value);
    if (error instanceof VideoNotFoundError && value.k === 'session') return sessionCheckMessage(value, []);
    ix.logger.warn('checking after an unanswered change failed', { check: value.k, error });
    return warning(describeError(error, { operation: 'list-streams', project: value.p, ...('s' in value ? { sessionId: value.s } : {}) }));
  }
}

export function register(app: App, services: Services): void {
  app.action<BlockAction<ButtonAction>>(ACTION.checkVideo, async ({ ack, body, action, respond, client }: ButtonArgs) => {
    await ack();
    const clicked = fromBlockAction(services, client, body, respond, ACTION.checkVideo);
    const ix: Interaction = { ...clicked, ...(clicked.respond && { respond: replacingFirst(clicked.respond) }) };
    const value = decodeValue(CheckValueSchema, action.value);
    if (!value) return replyEphemeral(ix, warning(STALE));
    if (value.k === 'rerun') {
      if (!ix.respond) return replyEphemeral(ix, warning('Type the command again to ask the video service again.'));
      return typeAgain({ ...ix, respond: ix.respond }, value.c, value.t);
    }
    const allowed = await authorize(ix, 'viewer', { what: 'Check', command: 'check', target: auditTarget(value), projectName: value.p });
    if (!allowed) return;
    await replyEphemeral(ix, await readBack(ix, value));
  });
}
