/**
 * Reads what a person entered in rendered inputs back into Slack's `view.state.values` shape:
 * `{[blockId]: {[actionId]: {type, value | selected_option | selected_options | …}}}`.
 */

function elementOf(node) {
  return JSON.parse(node.dataset.element);
}

function allOptions(element) {
  if (element.option_groups) return element.option_groups.flatMap((group) => group.options ?? []);
  return element.options ?? [];
}

function optionByValue(element, value) {
  return allOptions(element).find((option) => option.value === value) ?? null;
}

/** The state entry of one input control. */
export function readControl(node) {
  const element = elementOf(node);
  const type = element.type;
  switch (type) {
    case 'plain_text_input':
    case 'number_input':
    case 'email_text_input':
    case 'url_text_input':
      return { type, value: node.value === '' ? null : node.value };
    case 'static_select':
      return { type, selected_option: node.value === '' ? null : optionByValue(element, node.value) };
    case 'multi_static_select':
      return { type, selected_options: [...node.selectedOptions].map((o) => optionByValue(element, o.value)).filter(Boolean) };
    case 'external_select': {
      const selected = JSON.parse(node.dataset.selected ?? '[]');
      return { type, selected_option: selected[0] ?? null };
    }
    case 'multi_external_select':
      return { type, selected_options: JSON.parse(node.dataset.selected ?? '[]') };
    case 'radio_buttons': {
      const checked = node.querySelector('input:checked');
      return { type, selected_option: checked ? optionByValue(element, checked.value) : null };
    }
    case 'checkboxes':
      return { type, selected_options: [...node.querySelectorAll('input:checked')].map((input) => optionByValue(element, input.value)).filter(Boolean) };
    case 'datepicker':
      return { type, selected_date: node.value === '' ? null : node.value };
    case 'timepicker':
      return { type, selected_time: node.value === '' ? null : node.value };
    case 'conversations_select':
      return { type, selected_conversation: node.value === '' ? null : node.value };
    case 'channels_select':
      return { type, selected_channel: node.value === '' ? null : node.value };
    case 'users_select':
      return { type, selected_user: node.value === '' ? null : node.value };
    case 'multi_conversations_select':
      return { type, selected_conversations: [...node.selectedOptions].map((o) => o.value) };
    case 'multi_channels_select':
      return { type, selected_channels: [...node.selectedOptions].map((o) => o.value) };
    case 'multi_users_select':
      return { type, selected_users: [...node.selectedOptions].map((o) => o.value) };
    default:
      return { type };
  }
}

/** `state.values` of every input under `root` (a modal form, a message or the Home tab). */
export function readStateValues(root) {
  const values = {};
  for (const node of root.querySelectorAll('[data-input]')) {
    const blockId = node.dataset.blockId;
    const actionId = node.dataset.actionId;
    (values[blockId] ??= {})[actionId] = readControl(node);
  }
  return values;
}

/**
 * After a views.update Slack keeps what was typed in inputs whose block and action ids did not
 * change; this puts the previous entries back into the new form.
 */
export function restoreStateValues(root, previous) {
  for (const node of root.querySelectorAll('[data-input]')) {
    const entry = previous[node.dataset.blockId]?.[node.dataset.actionId];
    if (!entry || entry.type !== elementOf(node).type) continue;
    if ('value' in entry && entry.value !== null) node.value = entry.value;
    else if ('selected_date' in entry && entry.selected_date) node.value = entry.selected_date;
    else if ('selected_time' in entry && entry.selected_time) node.value = entry.selected_time;
    else if (entry.type === 'static_select' && entry.selected_option) node.value = entry.selected_option.value;
    else if (entry.type === 'multi_static_select') {
      const chosen = new Set(entry.selected_options.map((o) => o.value));
      for (const option of node.options) option.selected = chosen.has(option.value);
    } else if (entry.type === 'multi_external_select') {
      node.dataset.selected = JSON.stringify(entry.selected_options);
      const chips = node.querySelector('.bk-chips');
      if (chips) chips.textContent = entry.selected_options.map((o) => o.text?.text ?? o.value).join(', ');
    } else if (entry.type === 'radio_buttons' && entry.selected_option) {
      for (const input of node.querySelectorAll('input')) input.checked = input.value === entry.selected_option.value;
    } else if (entry.type === 'checkboxes') {
      const chosen = new Set(entry.selected_options.map((o) => o.value));
      for (const input of node.querySelectorAll('input')) input.checked = chosen.has(input.value);
    } else if (entry.type === 'external_select' && entry.selected_option) {
      node.dataset.selected = JSON.stringify([entry.selected_option]);
      const box = node.querySelector('input');
      if (box) box.value = entry.selected_option.text?.text ?? entry.selected_option.value;
    }
  }
}
