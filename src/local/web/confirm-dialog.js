/** Slack's confirm objects (on buttons, selects, overflow menus) as the page's <dialog>. */
import { textObjectToHtml, textObjectToPlain } from './mrkdwn.js';

const $ = (id) => document.getElementById(id);

/** Shows the dialog; resolves true when the person confirms, false on deny or Escape. */
export function confirmWith(confirm, ctx = {}) {
  const dialog = $('confirm-dialog');
  $('confirm-title').textContent = textObjectToPlain(confirm.title) || 'Are you sure?';
  $('confirm-text').innerHTML = textObjectToHtml(confirm.text, ctx);
  const ok = $('confirm-ok');
  ok.textContent = textObjectToPlain(confirm.confirm) || 'Yes';
  ok.className = `bk-btn ${confirm.style === 'danger' ? 'bk-btn--danger' : 'bk-btn--primary'}`;
  $('confirm-deny').textContent = textObjectToPlain(confirm.deny) || 'Cancel';
  dialog.returnValue = '';
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'confirm'), { once: true });
  });
}
