/**
 * External selects as comboboxes: typing asks the app for options (`block_suggestion` through
 * `/local/options`), picking one stores it on the element (forms.js reads it back) and, outside
 * forms or with `dispatch_action`, sends it as a block action.
 */
import { local } from './api.js';
import { escapeHtml, textObjectToPlain } from './mrkdwn.js';

function hideListbox(wrapper) {
  const list = wrapper.querySelector('[role="listbox"]');
  list.hidden = true;
  wrapper.querySelector('[role="combobox"]').setAttribute('aria-expanded', 'false');
}

/** Per combobox, the latest request: answers to older ones (slower, fewer letters typed) are dropped. */
const latestSuggestion = new WeakMap();

async function requestSuggestions(box, containerOf) {
  const wrapper = box.closest('.bk-external');
  const element = JSON.parse(wrapper.dataset.element);
  const minimum = element.min_query_length ?? 3;
  const query = box.value === currentSelectionText(wrapper) ? '' : box.value;
  if (query.length < minimum) return;
  const container = containerOf(wrapper);
  const request = (latestSuggestion.get(box) ?? 0) + 1;
  latestSuggestion.set(box, request);
  const answer = await local.options({
    ...(container?.type === 'view' ? { viewId: container.viewId } : {}),
    ...(container?.type === 'message' ? { channel: container.channel, ts: container.ts } : {}),
    actionId: wrapper.dataset.actionId,
    blockId: wrapper.dataset.blockId,
    value: query,
  });
  if (latestSuggestion.get(box) !== request || !box.isConnected) return;
  const list = wrapper.querySelector('[role="listbox"]');
  const optionHtml = (o) => {
    const description = o.description ? `<span class="bk-option-description">${escapeHtml(textObjectToPlain(o.description))}</span>` : '';
    return `<div role="option" tabindex="-1" class="bk-option" aria-selected="false" data-option="${escapeHtml(JSON.stringify(o))}"><span>${escapeHtml(textObjectToPlain(o.text))}</span>${description}</div>`;
  };
  const html = answer.option_groups
    ? answer.option_groups
        .map((group) => {
          const label = escapeHtml(textObjectToPlain(group.label));
          return `<div role="group" aria-label="${label}"><div class="bk-listbox-group" aria-hidden="true">${label}</div>${(group.options ?? []).map(optionHtml).join('')}</div>`;
        })
        .join('')
    : (answer.options ?? []).map(optionHtml).join('');
  list.innerHTML = html || '<div class="bk-listbox-empty">No matches</div>';
  list.hidden = false;
  box.setAttribute('aria-expanded', 'true');
}

function currentSelectionText(wrapper) {
  const [selected] = JSON.parse(wrapper.dataset.selected ?? '[]');
  return selected ? textObjectToPlain(selected.text) : '';
}

function chooseOption(option, { dispatches, sendAction }) {
  const wrapper = option.closest('.bk-external');
  const chosen = JSON.parse(option.dataset.option);
  const multi = wrapper.dataset.multi === 'true';
  const selected = multi ? [...JSON.parse(wrapper.dataset.selected ?? '[]').filter((o) => o.value !== chosen.value), chosen] : [chosen];
  wrapper.dataset.selected = JSON.stringify(selected);
  const box = wrapper.querySelector('[role="combobox"]');
  box.value = multi ? '' : textObjectToPlain(chosen.text);
  const chips = wrapper.querySelector('.bk-chips');
  if (chips) chips.innerHTML = selected.map((o) => `<span class="bk-chip">${escapeHtml(textObjectToPlain(o.text))}</span>`).join('');
  hideListbox(wrapper);
  if (dispatches(wrapper)) sendAction(wrapper, multi ? { selectedOptions: selected } : { selectedOption: chosen });
}

function onKey(event, box, hooks) {
  const wrapper = box.closest('.bk-external');
  const options = [...wrapper.querySelectorAll('[role="option"]')];
  if (options.length === 0) return;
  const current = options.findIndex((o) => o.getAttribute('aria-selected') === 'true');
  const move = (index) => {
    options.forEach((o, i) => o.setAttribute('aria-selected', i === index ? 'true' : 'false'));
    options[index]?.scrollIntoView({ block: 'nearest' });
  };
  if (event.key === 'ArrowDown') {
    event.preventDefault();
    move(Math.min(options.length - 1, current + 1));
  } else if (event.key === 'ArrowUp') {
    event.preventDefault();
    move(Math.max(0, current - 1));
  } else if (event.key === 'Enter' && current >= 0) {
    event.preventDefault();
    chooseOption(options[current], hooks);
  } else if (event.key === 'Escape') hideListbox(wrapper);
}

/**
 * `hooks`: `containerOf(node)` (message or view of a control), `dispatches(node)` (whether a
 * choice is sent at once) and `sendAction(node, extra)`.
 */
export function installExternalSelects(hooks) {
  const { containerOf } = hooks;
  const suggestionTimers = new WeakMap();
  document.addEventListener('focusin', (event) => {
    if (event.target.matches('.bk-external input[role="combobox"]')) requestSuggestions(event.target, containerOf);
  });

  document.addEventListener('input', (event) => {
    if (!event.target.matches('.bk-external input[role="combobox"]')) return;
    const box = event.target;
    clearTimeout(suggestionTimers.get(box));
    suggestionTimers.set(
      box,
      setTimeout(() => requestSuggestions(box, containerOf), 150),
    );
  });

  document.addEventListener('focusout', (event) => {
    const wrapper = event.target.closest?.('.bk-external');
    if (!wrapper) return;
    // Let a click on an option land before the list closes.
    setTimeout(() => {
      if (!wrapper.contains(document.activeElement)) hideListbox(wrapper);
    }, 200);
  });

  document.addEventListener('click', (event) => {
    const option = event.target.closest('.bk-listbox [role="option"]');
    if (option) chooseOption(option, hooks);
  });

  document.addEventListener('keydown', (event) => {
    if (event.target.matches('.bk-external input[role="combobox"]')) onKey(event, event.target, hooks);
  });
}
