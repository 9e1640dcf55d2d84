/**
 * Composed web-page streams (Experience Composers) in answers: the details of one
 * (`/render show`), the list, the confirmation of `/render stop` and the stop notice. The card is
 * the kind's (src/kinds/composer.ts). Page addresses and names come from users: always escaped.
 */
import { z } from 'zod';
import { code, escapeAndTruncate, escapeMrkdwn, userMention } from '../slack/mrkdwn';
import { type KnownBlock, type SlackMessage, LIMITS, actions, button, context, header, section, stripMrkdwn } from './blocks';
import { type Via, dialogFor } from './confirmation-policy';
import { ACTION } from './ids';
import { type SessionRef, footer, sessionText } from './notices';
import { SessionTargetSchema, encodeValue, sessionTarget } from './values';
import { type RenderView, detailFields, isRenderRunning, pageText, renderStatusText, renderStopButton } from '../kinds/composer';

/** What a composer's Stop buttons carry: project, session and composer id. */
export const RenderTargetSchema = SessionTargetSchema.extend({ i: z.string().min(1) });
export type RenderTarget = z.output<typeof RenderTargetSchema>;

/** Composers shown in one `/render list` answer. */
export const MAX_RENDERS_LISTED = 20;

/** `/render show <id>`: one composer, with Stop while it runs (ephemeral). */
export function renderDetails(projectName: string, render: RenderView): SlackMessage {
  const s: SessionRef = { projectName, sessionId: render.sessionId };
  const blocks: KnownBlock[] = [
    header(`Composer ${render.name ?? render.id}`),
    section(`*Page* ${pageText(render.url)}\n*Session* ${code(render.sessionId)}`),
    detailFields(render),
  ];
  if (isRenderRunning(render.status)) blocks.push(actions([renderStopButton(s, render)]));
  blocks.push(
    context(
      `Project *${escapeAndTruncate(projectName, 100)}* · started <!date^${Math.floor(render.createdAt / 1000)}^{date_short_pretty} {time}|${new Date(render.createdAt).toISOString()}>`,
    ),
  );
  return { text: `Composer ${escapeMrkdwn(render.id)}: ${render.status}`, blocks };
}

function listRow(projectName: string, render: RenderView, via: Via): KnownBlock {
  const title = render.name ? `*${escapeAndTruncate(render.name, 200)}* · ` : '';
  const text = `${title}${renderStatusText(render)}\n${pageText(render.url)}\nSession ${code(render.sessionId)} · ID ${code(render.id)}`;
  const accessory = isRenderRunning(render.status) ? renderStopButton({ projectName, sessionId: render.sessionId }, render, via) : undefined;
  return section(text, accessory);
}

export interface RenderListScope {
  projectName: string;
  /** Only this session's composers were asked for. */
  session?: SessionRef;
  /** Composers the service knows in this scope (the list may show fewer). */
  total: number;
  /** `typed` when the list answers `/render stop` (it is the question: its Stop buttons act). */
  via?: Via;
}

/** `/render list`: running composers first, then the latest others (ephemeral). */
export function renderListMessage(scope: RenderListScope, renders: readonly RenderView[]): SlackMessage {
  const where = scope.session ? `in ${sessionText(scope.session)}` : `in project *${escapeAndTruncate(scope.projectName, 100)}*`;
  const running = renders.filter((r) => isRenderRunning(r.status)).length;
  if (renders.length === 0) {
    return { text: 'No composers', blocks: [section(`No composers ${where}. Start one with \`/render start <url>\`.`)] };
  }
  const shown = [...renders].sort((a, b) => Number(isRenderRunning(b.status)) - Number(isRenderRunning(a.status))).slice(0, MAX_RENDERS_LISTED);
  const blocks: KnownBlock[] = [
    header('Composers'),
    context(`${running === 1 ? '1 running' : `${running} running`} · ${scope.total === 1 ? '1 composer' : `${scope.total} composers`} ${where}`),
  ];
  for (const render of shown) blocks.push(listRow(scope.projectName, render, scope.via ?? 'clicked'));
  if (scope.total > shown.length) blocks.push(context(`${scope.total - shown.length} more not shown; \`/render show <id>\` shows any one of them.`));
  return { text: `${renders.length} composers`, blocks: blocks.slice(0, LIMITS.messageBlocks) };
}

/** `/render stop`: what will stop (ephemeral); the card is the one question, its red button acts. */
export function renderStopConfirmCard(s: SessionRef, render: RenderView): SlackMessage {
  const name = render.name ? ` (*${escapeAndTruncate(render.name, 200)}*)` : '';
  return {
    text: `Stop composer ${escapeMrkdwn(render.id)}?`,
    blocks: [
      section(`:warning: *Stop composer ${code(render.id)}*${name}? The page ${pageText(render.url)} stops being published into ${sessionText(s)}.`),
      actions([
        button({
          actionId: ACTION.confirmRenderStop,
          text: 'Stop composer',
          style: 'danger',
          value: encodeValue({ ...sessionTarget(s), i: render.id }),
          ...dialogFor('render-stop', 'typed', { title: 'Stop this composer?', text: `Composer ${code(render.id)} stops now.`, confirm: 'Stop', danger: true }),
        }),
        button({ actionId: ACTION.cancel, text: 'Cancel' }),
      ]),
      context(s.alias ? `Only you can see this. ${footer(s)}` : 'Only you can see this.'),
    ],
  };
}

/** Posted in the channel when a composer was stopped from Slack. */
export function renderStoppedNotice(actor: string, s: SessionRef, renderId: string): SlackMessage {
  const sentence = `${userMention(actor)} stopped composer ${code(renderId)} in ${sessionText(s)}.`;
  return { text: stripMrkdwn(sentence), blocks: [section(`:frame_with_picture: ${sentence}`), context(footer(s))] };
}
