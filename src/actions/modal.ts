/** Showing a message (a denial, an error, a result) in place of a modal's content. */
import type { Interaction } from '../interaction/interaction';
import { type ShowInModal, currentPatience } from '../interaction/still-waiting';
import type { SlackMessage } from '../views/blocks';
import { infoModal } from '../views/modals';
import { scrub } from '../scrub';

/** The text of a one-section message, which is what denials, errors and results are. */
export function mainText(message: SlackMessage): string {
  const first = message.blocks[0];
  return first && first.type === 'section' && first.text ? first.text.text : message.text;
}

/** While the video service is slow the modal says so, and the answer replaces that (interaction/still-waiting.ts). */
export function showInModal(ix: Interaction, viewId: string, title: string): ShowInModal {
  const show = (message: SlackMessage) => ix.client.views.update({ view_id: viewId, view: infoModal(title, scrub(mainText(message))) });
  return currentPatience()?.inModal(show) ?? show;
}
