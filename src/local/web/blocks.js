/**
 * Block Kit → HTML strings. Pure (no DOM): the page puts the result in `innerHTML`, jest tests
 * read it as text. Every text goes through mrkdwn.js, so no message can inject markup.
 *
 * Interactive elements carry what the page needs to answer them as Slack would:
 * `data-kind` (button, select, external, overflow-option, …), `data-block-id`,
 * `data-action-id` and `data-element` (the element's JSON: options, confirm dialog, …).
 * Inputs of modals also carry `data-input` so forms.js can rebuild `view.state.values`.
 */
import { escapeHtml, safeUrl, textObjectToHtml, textObjectToPlain } from './mrkdwn.js';

/** Block id Slack would give a block the app left without one: stable per position. */
export function blockIdOf(block, index) {
  return block.block_id ?? `blk-${index}`;
}

function attrs(map) {
  return Object.entries(map)
    .filter(([, value]) => value !== undefined && value !== null && value !== false)
    .map(([name, value]) => (value === true ? ` ${name}` : ` ${name}="${escapeHtml(value)}"`))
    .join('');
}

function elementData(element, blockId, kind) {
  return { 'data-kind': kind, 'data-block-id': blockId, 'data-action-id': element.action_id ?? '', 'data-element': JSON.stringify(element) };
}

/** aria-describedby (hint, error) and aria-invalid of an input block's control. */
function ariaOf(opts) {
  return { 'aria-describedby': opts.describedBy || undefined, 'aria-invalid': opts.invalid ? 'true' : undefined };
}

/** DOM id of an input's control, unique per view and block. */
export function controlId(scope, blockId, actionId) {
  return `in-${scope}-${blockId}-${actionId ?? ''}`.replace(/[^A-Za-z0-9_-]/g, '_');
}

function optionText(option) {
  return textObjectToPlain(option.text);
}

function sameOption(a, b) {
  return Boolean(a && b) && a.value === b.value;
}

function optionsHtml(element, selected) {
  const isSelected = (option) => selected.some((s) => sameOption(s, option));
  const one = (option) => `<option${attrs({ value: option.value, selected: isSelected(option) })}>${escapeHtml(optionText(option))}</option>`;
  if (element.option_groups) {
    return element.option_groups
      .map((group) => `<optgroup${attrs({ label: textObjectToPlain(group.label) })}>${(group.options ?? []).map(one).join('')}</optgroup>`)
      .join('');
  }
  return (element.options ?? []).map(one).join('');
}

function placeholderText(element, fallback) {
  return element.placeholder ? textObjectToPlain(element.placeholder) : fallback;
}

function buttonHtml(element, blockId) {
  const style = element.style === 'primary' || element.style === 'danger' ? ` bk-btn--${element.style}` : '';
  const url = element.url ? safeUrl(element.url) : null;
  return `<button type="button" class="bk-btn${style}"${attrs({ ...elementData(element, blockId, 'button'), 'data-url': url ?? undefined, 'aria-label': element.accessibility_label })}>${textObjectToHtml(element.text)}</button>`;
}

function staticSelectHtml(element, blockId, opts) {
  const multi = element.type.startsWith('multi_');
  const selected = multi ? (element.initial_options ?? []) : element.initial_option ? [element.initial_option] : [];
  const label = opts.label ?? placeholderText(element, 'Choose an option');
  const blank = multi
    ? ''
    : `<option value=""${selected.length === 0 ? ' selected' : ''}${opts.input ? '' : ' disabled'}>${escapeHtml(placeholderText(element, 'Select an item'))}</option>`;
  return `<select class="bk-select"${attrs({ ...elementData(element, blockId, multi ? 'multi-select' : 'select'), ...ariaOf(opts), id: opts.id, multiple: multi, 'aria-label': opts.id ? undefined : label, 'data-input': opts.input ? element.type : undefined })}>${blank}${optionsHtml(element, selected)}</select>`;
}

function listSelectHtml(element, blockId, opts, entries, initial) {
  const multi = element.type.startsWith('multi_');
  const chosen = new Set(multi ? (initial ?? []) : initial ? [initial] : []);
  const label = opts.label ?? placeholderText(element, 'Choose');
  const blank = multi ? '' : `<option value=""${chosen.size === 0 ? ' selected' : ''}>${escapeHtml(placeholderText(element, 'Select an item'))}</option>`;
  const options = entries.map(({ id, name }) => `<option${attrs({ value: id, selected: chosen.has(id) })}>${escapeHtml(name)}</option>`).join('');
  return `<select class="bk-select"${attrs({ ...elementData(element, blockId, 'list-select'), ...ariaOf(opts), id: opts.id, multiple: multi, 'aria-label': opts.id ? undefined : label, 'data-input': opts.input ? element.type : undefined })}>${blank}${options}</select>`;
}

function externalSelectHtml(element, blockId, opts) {
  const multi = element.type.startsWith('multi_');
  const initial = multi ? (element.initial_options ?? []) : element.initial_option ? [element.initial_option] : [];
  const label = opts.label ?? placeholderText(element, 'Search');
  const listId = `${opts.id ?? controlId('x', blockId, element.action_id)}-list`;
  return (
    `<div class="bk-external"${attrs({ ...elementData(element, blockId, 'external'), 'data-input': opts.input ? element.type : undefined, 'data-selected': JSON.stringify(initial), 'data-multi': multi ? 'true' : undefined })}>` +
    `<input type="text" class="bk-text" role="combobox" autocomplete="off"${attrs({ ...ariaOf(opts), id: opts.id, 'aria-label': opts.id ? undefined : label, 'aria-controls': listId, 'aria-expanded': 'false', 'aria-autocomplete': 'list', placeholder: placeholderText(element, 'Type to search'), value: multi ? '' : initial[0] ? optionText(initial[0]) : '' })}>` +
    `<div class="bk-listbox" role="listbox"${attrs({ id: listId, 'aria-label': label })} hidden></div>` +
    (multi ? `<div class="bk-chips">${initial.map((o) => `<span class="bk-chip">${escapeHtml(optionText(o))}</span>`).join('')}</div>` : '') +
    `</div>`
  );
}

function overflowHtml(element, blockId) {
  const items = (element.options ?? [])
    .map(
      (option) =>
        `<button type="button" role="menuitem" class="bk-menu-item"${attrs({ ...elementData(element, blockId, 'overflow-option'), 'data-value': option.value, 'data-url': option.url ? (safeUrl(option.url) ?? undefined) : undefined })}>${escapeHtml(optionText(option))}</button>`,
    )
    .join('');
  return `<details class="bk-overflow"><summary class="bk-btn bk-btn--icon" aria-label="More actions">⋯</summary><div class="bk-menu" role="menu">${items}</div></details>`;
}

function choiceListHtml(element, blockId, opts) {
  const radio = element.type === 'radio_buttons';
  const selected = radio ? (element.initial_option ? [element.initial_option] : []) : (element.initial_options ?? []);
  const name = opts.id ?? controlId('r', blockId, element.action_id);
  const choices = (element.options ?? [])
    .map((option, i) => {
      const id = `${name}-${i}`;
      const description = option.description ? `<span class="bk-choice-description">${textObjectToHtml(option.description, opts.ctx)}</span>` : '';
      return (
        `<div class="bk-choice"><input${attrs({ type: radio ? 'radio' : 'checkbox', id, name, value: option.value, checked: selected.some((s) => sameOption(s, option)) })}>` +
        `<label${attrs({ for: id })}><span class="bk-choice-text">${textObjectToHtml(option.text, opts.ctx)}</span>${description}</label></div>`
      );
    })
    .join('');
  const legend = opts.label ? `<legend class="bk-label">${opts.legendHtml ?? escapeHtml(opts.label)}</legend>` : '';
  return `<fieldset class="bk-choices"${attrs({ ...elementData(element, blockId, radio ? 'radio' : 'checkboxes'), ...ariaOf(opts), 'data-input': element.type, 'aria-label': opts.label ? undefined : 'Options' })}>${legend}${choices}</fieldset>`;
}

function textInputHtml(element, blockId, opts) {
  const common = {
    ...elementData(element, blockId, 'text'),
    ...ariaOf(opts),
    id: opts.id,
    'aria-label': opts.id ? undefined : opts.label,
    'data-input': element.type,
    placeholder: element.placeholder ? textObjectToPlain(element.placeholder) : undefined,
    maxlength: element.max_length,
    minlength: element.min_length,
  };
  if (element.type === 'number_input') {
    return `<input class="bk-text"${attrs({ ...common, type: 'number', inputmode: element.is_decimal_allowed ? 'decimal' : 'numeric', step: element.is_decimal_allowed ? 'any' : '1', min: element.min_value, max: element.max_value, value: element.initial_value, maxlength: undefined, minlength: undefined })}>`;
  }
  if (element.multiline) return `<textarea class="bk-text" rows="4"${attrs(common)}>${escapeHtml(element.initial_value ?? '')}</textarea>`;
  const type = element.type === 'email_text_input' ? 'email' : element.type === 'url_text_input' ? 'url' : 'text';
  return `<input class="bk-text"${attrs({ ...common, type, value: element.initial_value })}>`;
}

/**
 * One interactive element. `opts`: `id` (control id, labelled by a <label for>), `label` (its
 * accessible name otherwise), `input` (inside an input block), `ctx` (users, channels).
 */
export function renderElement(element, blockId, opts = {}) {
  const ctx = opts.ctx ?? {};
  switch (element.type) {
    case 'button':
      return buttonHtml(element, blockId);
    case 'static_select':
    case 'multi_static_select':
      return staticSelectHtml(element, blockId, opts);
    case 'external_select':
    case 'multi_external_select':
      return externalSelectHtml(element, blockId, opts);
    case 'conversations_select':
    case 'channels_select':
    case 'multi_conversations_select':
    case 'multi_channels_select': {
      const multi = element.type.startsWith('multi_');
      const initial = multi ? (element.initial_conversations ?? element.initial_channels) : (element.initial_conversation ?? element.initial_channel);
      const entries = Object.entries(ctx.channels ?? {}).map(([id, name]) => ({ id, name: `#${name}` }));
      return listSelectHtml(element, blockId, opts, entries, initial);
    }
    case 'users_select':
    case 'multi_users_select': {
      const initial = element.type === 'users_select' ? element.initial_user : element.initial_users;
      const entries = Object.entries(ctx.users ?? {}).map(([id, name]) => ({ id, name }));
      return listSelectHtml(element, blockId, opts, entries, initial);
    }
    case 'overflow':
      return overflowHtml(element, blockId);
    case 'radio_buttons':
    case 'checkboxes':
      return choiceListHtml(element, blockId, opts);
    case 'plain_text_input':
    case 'number_input':
    case 'email_text_input':
    case 'url_text_input':
      return textInputHtml(element, blockId, opts);
    case 'datepicker':
      return `<input type="date" class="bk-text"${attrs({ ...elementData(element, blockId, 'date'), ...ariaOf(opts), id: opts.id, 'aria-label': opts.id ? undefined : (opts.label ?? placeholderText(element, 'Date')), value: element.initial_date, 'data-input': opts.input ? element.type : undefined })}>`;
    case 'timepicker':
      return `<input type="time" class="bk-text"${attrs({ ...elementData(element, blockId, 'time'), ...ariaOf(opts), id: opts.id, 'aria-label': opts.id ? undefined : (opts.label ?? placeholderText(element, 'Time')), value: element.initial_time, 'data-input': opts.input ? element.type : undefined })}>`;
    case 'image':
      return imageHtml(element.image_url, element.alt_text, 'bk-accessory-image');
    default:
      return `<span class="bk-unsupported">Unsupported element: ${escapeHtml(element.type)}</span>`;
  }
}

function imageHtml(url, altText, className) {
  const src = safeUrl(url);
  if (!src) return `<span class="bk-unsupported">${escapeHtml(altText ?? 'image')}</span>`;
  return `<img${attrs({ class: className, src, alt: altText ?? '', loading: 'lazy' })}>`;
}

function sectionHtml(block, blockId, ctx) {
  const text = block.text ? `<div class="bk-section-text">${textObjectToHtml(block.text, ctx)}</div>` : '';
  const fields = block.fields?.length
    ? `<div class="bk-fields">${block.fields.map((field) => `<div class="bk-field">${textObjectToHtml(field, ctx)}</div>`).join('')}</div>`
    : '';
  const accessory = block.accessory ? `<div class="bk-accessory">${renderElement(block.accessory, blockId, { ctx })}</div>` : '';
  return `<div class="bk-block bk-section"${attrs({ 'data-block-id': blockId })}><div class="bk-section-body">${text}${fields}</div>${accessory}</div>`;
}

function contextHtml(block, blockId, ctx) {
  const parts = (block.elements ?? [])
    .map((element) =>
      element.type === 'image' ? imageHtml(element.image_url, element.alt_text, 'bk-context-image') : `<span>${textObjectToHtml(element, ctx)}</span>`,
    )
    .join('');
  return `<div class="bk-block bk-context"${attrs({ 'data-block-id': blockId })}>${parts}</div>`;
}

function imageBlockHtml(block, blockId, ctx) {
  const title = block.title ? `<figcaption>${textObjectToHtml(block.title, ctx)}</figcaption>` : '';
  return `<figure class="bk-block bk-image"${attrs({ 'data-block-id': blockId })}>${title}${imageHtml(block.image_url, block.alt_text, 'bk-image-img')}</figure>`;
}

function actionsHtml(block, blockId, ctx) {
  const elements = (block.elements ?? []).map((element) => renderElement(element, blockId, { ctx })).join('');
  return `<div class="bk-block bk-actions" role="group"${attrs({ 'data-block-id': blockId, 'aria-label': 'Actions' })}>${elements}</div>`;
}

function inputHtml(block, blockId, ctx, scope) {
  const element = block.element ?? {};
  const id = controlId(scope, blockId, element.action_id);
  const label = textObjectToPlain(block.label);
  const optional = block.optional ? '<span class="bk-optional">(optional)</span>' : '';
  const hint = block.hint ? `<div class="bk-hint"${attrs({ id: `${id}-hint` })}>${textObjectToHtml(block.hint, ctx)}</div>` : '';
  const error = ctx.errors?.[blockId];
  const errorHtml = error ? `<div class="bk-error" role="alert"${attrs({ id: `${id}-error` })}>${escapeHtml(error)}</div>` : '';
  const grouped = element.type === 'radio_buttons' || element.type === 'checkboxes';
  const labelHtml = `${escapeHtml(label)} ${optional}`;
  const describedBy = [error ? `${id}-error` : '', block.hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  const common = { id, label, input: true, ctx, describedBy, invalid: Boolean(error) };
  const control = grouped ? renderElement(element, blockId, { ...common, legendHtml: labelHtml }) : renderElement(element, blockId, common);
  const head = grouped ? '' : `<label class="bk-label"${attrs({ for: id })}>${labelHtml}</label>`;
  return `<div class="bk-block bk-input${error ? ' bk-input--error' : ''}"${attrs({ 'data-block-id': blockId, 'data-dispatch': block.dispatch_action ? 'true' : undefined, 'data-optional': block.optional ? 'true' : undefined })}>${head}${control}${errorHtml}${hint}</div>`;
}

/**
 * One block. `ctx`: `users` and `channels` (id → name), `timeZone`, `errors` (block id → message,
 * from a view_submission answer), `scope` (unique per view; control ids are built from it).
 */
export function renderBlock(block, index, ctx = {}) {
  const blockId = blockIdOf(block, index);
  switch (block.type) {
    case 'header':
      return `<h3 class="bk-block bk-header"${attrs({ 'data-block-id': blockId })}>${textObjectToHtml(block.text, ctx)}</h3>`;
    case 'section':
      return sectionHtml(block, blockId, ctx);
    case 'context':
      return contextHtml(block, blockId, ctx);
    case 'divider':
      return `<hr class="bk-block bk-divider">`;
    case 'image':
      return imageBlockHtml(block, blockId, ctx);
    case 'actions':
      return actionsHtml(block, blockId, ctx);
    case 'input':
      return inputHtml(block, blockId, ctx, ctx.scope ?? 'v');
    default:
      return `<div class="bk-block bk-unsupported">Unsupported block: ${escapeHtml(block.type)}</div>`;
  }
}

export function renderBlocks(blocks, ctx = {}) {
  return (blocks ?? []).map((block, index) => renderBlock(block, index, ctx)).join('');
}
