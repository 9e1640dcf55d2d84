/**
 * Modals and the App Home tab → HTML strings, pure. The page shows the top of the modal stack as
 * an overlay form; per-field errors come from the view's `errors` (the app's
 * `response_action: 'errors'`) and are rendered under each input by blocks.js.
 */
import { renderBlocks } from './blocks.js';
import { escapeHtml, textObjectToPlain } from './mrkdwn.js';

function scopeOf(view) {
  return String(view.id ?? 'view').replace(/[^A-Za-z0-9_-]/g, '_');
}

export function renderModal(view, ctx = {}) {
  const scope = scopeOf(view);
  const titleId = `modal-title-${scope}`;
  const title = escapeHtml(textObjectToPlain(view.title) || 'App');
  const body = renderBlocks(view.blocks, { ...ctx, scope, errors: view.errors ?? ctx.errors });
  const close = escapeHtml(textObjectToPlain(view.close) || (view.submit ? 'Cancel' : 'Close'));
  const submit = view.submit ? `<button type="submit" class="bk-btn bk-btn--primary">${escapeHtml(textObjectToPlain(view.submit))}</button>` : '';
  return (
    `<div class="modal" role="dialog" aria-modal="true" aria-labelledby="${titleId}">` +
    `<form class="modal-form" data-view-id="${escapeHtml(view.id)}" novalidate>` +
    `<header class="modal-head"><h2 id="${titleId}">${title}</h2><button type="button" class="modal-x" data-role="close" aria-label="Close dialog">×</button></header>` +
    `<div class="modal-body">${body}</div>` +
    `<footer class="modal-foot"><button type="button" class="bk-btn" data-role="close">${close}</button>${submit}</footer>` +
    `</form></div>`
  );
}

export function renderHome(view, ctx = {}) {
  if (!view) return '<div class="empty">The App Home tab has not been published yet.</div>';
  return `<div class="home" data-view-id="${escapeHtml(view.id)}">${renderBlocks(view.blocks, { ...ctx, scope: scopeOf(view) })}</div>`;
}
