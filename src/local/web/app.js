/**
 * The local Slack page: channel list, channel view with threads, composer, modals, App Home and
 * the emulator side panel (panel.js). State comes from `/local/state`, refreshed on every
 * Server-Sent Event of `/local/events`; clicks go back as `/local/*` calls (PROTOCOL.md).
 */
import { local } from './api.js';
import { confirmWith } from './confirm-dialog.js';
import { closeDrawers, installDrawers } from './drawers.js';
import { installExternalSelects } from './external-select.js';
import { readControl, readStateValues, restoreStateValues } from './forms.js';
import { channelEntries } from './messages.js';
import { escapeHtml } from './mrkdwn.js';
import { createPanel } from './panel.js';
import { renderHome, renderModal } from './views.js';

const $ = (id) => document.getElementById(id);

const ui = {
  state: null,
  channel: null,
  tab: 'channel',
  expandedThreads: new Set(),
  /** Per view id: errors from the last view_submission answer. */
  viewErrors: new Map(),
  /** What is on screen: the channel's pieces by key (see `channelEntries`), the home tab's and the modal's HTML. */
  rendered: { messages: new Map(), modal: '', home: '' },
};

/** Suggestions under the composer (any command of the app can be typed). */
const COMMAND_SUGGESTIONS = [
  '/video help',
  '/record start',
  '/record list',
  '/broadcast start',
  '/streams',
  '/usage',
  '/usage sessions',
  '/session create',
  '/mute-all',
  '/captions start',
  '/render start',
  '/video watches',
  '/video-admin projects',
];

function renderContext() {
  const state = ui.state;
  return {
    users: Object.fromEntries([[state.user.id, state.user.name]]),
    channels: Object.fromEntries(state.channels.map((c) => [c.id, c.name])),
    botName: 'vidops',
    botUserId: 'U0LOCALBOT',
  };
}

function showError(text) {
  $('composer-error').textContent = text ?? '';
}

// ---- rendering -------------------------------------------------------------------------

const isDirect = (conversation) => conversation.id.startsWith('D');

function renderSidebar() {
  const item = (c, label, icon) => {
    const current = ui.tab === 'channel' && c.id === ui.channel;
    return `<li><button type="button" class="sidebar-item" data-channel="${escapeHtml(c.id)}"${current ? ' aria-current="page"' : ''}>${icon}${escapeHtml(label)}</button></li>`;
  };
  $('channel-list').innerHTML = ui.state.channels
    .filter((c) => !isDirect(c))
    .map((c) => item(c, c.name, '<span aria-hidden="true" class="sidebar-hash">#</span>'))
    .join('');
  $('dm-list').innerHTML = ui.state.channels
    .filter(isDirect)
    .map((c) => item(c, 'Messages', '<span class="sidebar-app" aria-hidden="true">V</span>'))
    .join('');
  const home = $('open-home');
  if (ui.tab === 'home') home.setAttribute('aria-current', 'page');
  else home.removeAttribute('aria-current');
}

function nearBottom(element) {
  return element.scrollHeight - element.scrollTop - element.clientHeight < 80;
}

function renderMessages() {
  const container = $('messages');
  const entries = channelEntries(ui.state.messages, ui.channel, ui.expandedThreads, renderContext());
  const previous = ui.rendered.messages;
  const unchanged = entries.length === previous.size && entries.every(({ key, html }) => previous.get(key)?.html === html);
  if (unchanged) return;
  const stick = nearBottom(container) || previous.size === 0;
  const next = new Map();
  const nodes = entries.map(({ key, html }) => {
    const kept = previous.get(key);
    const node = kept?.html === html ? kept.node : htmlToNode(html);
    next.set(key, { html, node });
    return node;
  });
  ui.rendered.messages = next;
  // Only what changed is replaced; the rest stays the same node, in order.
  let cursor = container.firstChild;
  for (const node of nodes) {
    if (cursor === node) cursor = cursor.nextSibling;
    else container.insertBefore(node, cursor);
  }
  while (cursor) {
    const stale = cursor;
    cursor = cursor.nextSibling;
    stale.remove();
  }
  if (stick) container.scrollTop = container.scrollHeight;
}

function htmlToNode(html) {
  const template = document.createElement('template');
  template.innerHTML = html;
  return template.content.firstElementChild;
}

function renderHomeTab() {
  const html = renderHome(ui.state.home, renderContext());
  if (html === ui.rendered.home) return;
  ui.rendered.home = html;
  $('home').innerHTML = html;
}

function renderModalStack() {
  const root = $('modal-root');
  const top = ui.state.views.at(-1);
  if (!top) {
    ui.rendered.modal = '';
    root.innerHTML = '';
    root.hidden = true;
    return;
  }
  const view = { ...top, errors: ui.viewErrors.get(top.id) ?? top.errors };
  const html = renderModal(view, renderContext());
  if (html === ui.rendered.modal) return;
  const previousForm = root.querySelector('form.modal-form');
  const sameView = previousForm?.dataset.viewId === top.id;
  const typed = sameView ? readStateValues(previousForm) : null;
  const focusedId = sameView ? document.activeElement?.id : null;
  ui.rendered.modal = html;
  root.innerHTML = html;
  root.hidden = false;
  const form = root.querySelector('form.modal-form');
  if (typed) restoreStateValues(form, typed);
  const focusTarget =
    (focusedId && document.getElementById(focusedId)) || form.querySelector('.bk-input--error [data-input], .bk-input--error input, [data-input]');
  if (focusTarget && (!sameView || focusedId)) focusTarget.focus({ preventScroll: true });
}

function renderTitle() {
  const channel = ui.state.channels.find((c) => c.id === ui.channel);
  const direct = channel && isDirect(channel);
  const name = direct ? 'vidops' : `#${channel?.name ?? ui.channel}`;
  $('view-title').textContent = ui.tab === 'home' ? 'vidops' : name;
  $('view-subtitle').textContent =
    ui.tab === 'home' ? 'App Home' : direct ? 'Direct messages with the app' : 'Operate the Video Session Service with slash commands';
  $('messages').hidden = ui.tab !== 'channel';
  $('composer').hidden = ui.tab !== 'channel';
  $('home').hidden = ui.tab !== 'home';
  $('composer-input').setAttribute('placeholder', `Slash command in ${name}, e.g. /record start`);
}

function render() {
  if (!ui.state) return;
  renderSidebar();
  renderTitle();
  if (ui.tab === 'channel') renderMessages();
  else renderHomeTab();
  renderModalStack();
  panel.render(ui.state.emulator);
}

// ---- state and live updates ---------------------------------------------------------------

let refreshing = null;
let refreshAgain = false;

/** Refetches `/local/state`; calls made while one is in flight collapse into one more. */
async function refresh() {
  if (refreshing) {
    refreshAgain = true;
    return refreshing;
  }
  refreshing = (async () => {
    do {
      refreshAgain = false;
      const state = await local.state();
      if (state.ok === false) throw new Error(state.error ?? 'state unavailable');
      ui.state = state;
      ui.channel ??= state.channels[0]?.id;
      for (const view of state.views) if (view.errors) ui.viewErrors.set(view.id, view.errors);
      render();
    } while (refreshAgain);
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

function setConnection(text, live) {
  const badge = $('connection');
  badge.textContent = text;
  badge.classList.toggle('connection--live', live);
}

function connectEvents() {
  const events = new EventSource('/local/events');
  events.onopen = () => {
    setConnection('Live', true);
    refresh().catch((error) => setConnection(`Offline: ${error.message}`, false));
  };
  events.onmessage = (event) => {
    let change;
    try {
      change = JSON.parse(event.data);
    } catch {
      return;
    }
    if (change.type === 'emulator' && ui.state) {
      ui.state.emulator = { ...ui.state.emulator, now: change.now };
      panel.setNow(change.now);
    }
    if (change.type === 'message' && change.message?.thread_ts && change.message.thread_ts !== change.message.ts) {
      ui.expandedThreads.add(change.message.thread_ts);
    }
    refresh().catch((error) => setConnection(`Offline: ${error.message}`, false));
  };
  // EventSource reconnects by itself; a closed one (server answered non-200) is reopened here.
  events.onerror = () => {
    setConnection('Reconnecting…', false);
    if (events.readyState === EventSource.CLOSED) setTimeout(connectEvents, 2000);
  };
}

// ---- interactions --------------------------------------------------------------------------

/** Where an interactive element lives: a message or a view (modal or Home). */
function containerOf(node) {
  const message = node.closest('.msg');
  if (message) return { type: 'message', channel: message.dataset.channel, ts: message.dataset.ts };
  const view = node.closest('[data-view-id]');
  if (view) return { type: 'view', viewId: view.dataset.viewId };
  return null;
}

async function sendAction(node, extra = {}) {
  const element = JSON.parse(node.dataset.element);
  if (element.confirm && !(await confirmWith(element.confirm, ui.state ? renderContext() : {}))) return;
  const container = containerOf(node);
  if (!container) return;
  const root = node.closest('.msg, [data-view-id]');
  const values = root ? readStateValues(root) : {};
  const answer = await local.action({ container, actionId: node.dataset.actionId, blockId: node.dataset.blockId, values, ...extra });
  if (answer.ok === false) toast(answer.error ?? 'The app did not accept that.');
}

/** A problem not tied to one field (an action the app refused, a closed form…), shown on top. */
function toast(text) {
  const banner = $('toast');
  $('toast-text').textContent = text;
  banner.hidden = false;
}

$('toast-close').addEventListener('click', () => {
  $('toast').hidden = true;
});

function optionFromElement(element, value) {
  const options = element.option_groups ? element.option_groups.flatMap((g) => g.options ?? []) : (element.options ?? []);
  return options.find((o) => o.value === value);
}

/** Inputs of a modal send block_actions only when their block has `dispatch_action`. */
function dispatches(node) {
  const input = node.closest('.bk-input');
  return !input || input.dataset.dispatch === 'true';
}

document.addEventListener('click', async (event) => {
  const target = event.target;
  const button = target.closest('[data-kind="button"]');
  if (button) {
    event.preventDefault();
    if (button.dataset.url) window.open(button.dataset.url, '_blank', 'noopener');
    const { value } = JSON.parse(button.dataset.element);
    await sendAction(button, value === undefined ? {} : { value });
    return;
  }
  const menuItem = target.closest('[data-kind="overflow-option"]');
  if (menuItem) {
    menuItem.closest('details')?.removeAttribute('open');
    if (menuItem.dataset.url) window.open(menuItem.dataset.url, '_blank', 'noopener');
    const element = JSON.parse(menuItem.dataset.element);
    await sendAction(menuItem, { selectedOption: optionFromElement(element, menuItem.dataset.value) });
    return;
  }
  const toggle = target.closest('.thread-toggle');
  if (toggle) {
    const ts = toggle.dataset.threadTs;
    if (ui.expandedThreads.has(ts)) ui.expandedThreads.delete(ts);
    else ui.expandedThreads.add(ts);
    renderMessages();
    return;
  }
  const channelButton = target.closest('#sidebar [data-channel]');
  if (channelButton) {
    ui.channel = channelButton.dataset.channel;
    ui.tab = 'channel';
    ui.rendered.messages = new Map();
    closeDrawers();
    render();
    return;
  }
  if (target.closest('#open-home')) {
    ui.tab = 'home';
    closeDrawers();
    render();
    const answer = await local.home();
    if (answer.ok === false) toast(answer.error ?? 'App Home is unavailable.');
    return;
  }
  const close = target.closest('[data-role="close"]');
  if (close) {
    const form = close.closest('form.modal-form');
    if (form) await local.close(form.dataset.viewId);
    return;
  }
});

document.addEventListener('change', async (event) => {
  const node = event.target;
  if (node.matches('select[data-kind="select"]') && dispatches(node)) {
    await sendAction(node, { selectedOption: optionFromElement(JSON.parse(node.dataset.element), node.value) });
  } else if (
    node.matches('select[data-kind="multi-select"], select[data-kind="list-select"], input[data-kind="date"], input[data-kind="time"]') &&
    dispatches(node)
  ) {
    await sendAction(node, actionPayloadOf(readControl(node)));
  } else if (node.closest('fieldset[data-kind="radio"], fieldset[data-kind="checkboxes"]')) {
    const group = node.closest('fieldset');
    if (dispatches(group)) await sendAction(group, actionPayloadOf(readControl(group)));
  }
});

/** A control's state entry as the fields of a `/local/action` call. */
function actionPayloadOf(entry) {
  if ('selected_option' in entry) return { selectedOption: entry.selected_option };
  if ('selected_options' in entry) return { selectedOptions: entry.selected_options };
  if ('value' in entry) return { value: entry.value };
  const [, picked] = Object.entries(entry).find(([key]) => key.startsWith('selected_')) ?? [];
  return picked === undefined ? {} : { value: Array.isArray(picked) ? picked.join(',') : picked };
}

document.addEventListener('keydown', async (event) => {
  const node = event.target;
  if (event.key === 'Enter' && node.matches('input[data-kind="text"]') && node.closest('.bk-input')?.dataset.dispatch === 'true') {
    event.preventDefault();
    await sendAction(node, { value: node.value });
  }
  if (event.key === 'Escape') {
    closeDrawers();
    // Like Slack, Escape closes the top form (a confirm dialog handles its own Escape first).
    const form = $('modal-root').querySelector('form.modal-form');
    if (form && !$('confirm-dialog').open && !node.closest('.bk-external')) {
      event.preventDefault();
      await local.close(form.dataset.viewId);
    }
  }
});

document.addEventListener('submit', async (event) => {
  const form = event.target;
  if (!form.matches('form.modal-form')) return;
  event.preventDefault();
  const viewId = form.dataset.viewId;
  const submit = form.querySelector('button[type="submit"]');
  submit.disabled = true;
  try {
    const answer = await local.submit(viewId, readStateValues(form));
    if (answer.ok === false) {
      ui.viewErrors.delete(viewId);
      toast(answer.error ?? 'The app did not accept the form.');
    } else if (answer.errors && Object.keys(answer.errors).length > 0) {
      ui.viewErrors.set(viewId, answer.errors);
    } else {
      ui.viewErrors.delete(viewId);
    }
    renderModalStack();
    await refresh();
  } finally {
    if (submit.isConnected) submit.disabled = false;
  }
});

// ---- composer ------------------------------------------------------------------------------

$('command-suggestions').innerHTML = COMMAND_SUGGESTIONS.map((c) => `<option value="${escapeHtml(c)}"></option>`).join('');

$('composer').addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = $('composer-input');
  const text = input.value.trim();
  if (!text) return;
  if (!text.startsWith('/')) {
    showError('Only slash commands can be sent here, e.g. /record start.');
    return;
  }
  showError('');
  input.value = '';
  const answer = await local.command(ui.channel, text);
  if (answer.ok === false) {
    input.value = text;
    showError(answer.error ?? 'The command failed.');
  }
});

// ---- start ---------------------------------------------------------------------------------

installDrawers();
installExternalSelects({ containerOf, dispatches, sendAction });
const panel = createPanel({ refresh, report: (text) => ($('emu-result').textContent = text) });
refresh().catch((error) => setConnection(`Offline: ${error.message}`, false));
connectEvents();
