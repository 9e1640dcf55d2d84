/**
 * The offline stand-in for Slack rejecting a payload: checks messages, modals, Home tabs and
 * option lists against the documented Block Kit limits (reference/slack-block-kit-limits.json).
 * Returns the violations as readable strings (empty when the payload is acceptable).
 */
import limitsJson from './reference/slack-block-kit-limits.json';

type Json = Record<string, unknown>;
const L = limitsJson as unknown as {
  message: { maxBlocks: number };
  modal: { maxBlocks: number; title: number; submit: number; close: number; private_metadata: number; callback_id: number; external_id: number };
  home: { maxBlocks: number; private_metadata: number; callback_id: number };
  common: { block_id: number; action_id: number };
  composition: {
    text: { min: number; max: number; types: string[] };
    placeholder: { text: number };
    confirm: { title: number; text: number; confirm: number; deny: number };
    option: { text: number; value: number; description: number; url: number };
    option_group: { label: number; options: number };
  };
  blocks: {
    section: { text: number; textMin: number; fields: number; fieldText: number; accessoryTypes: string[] };
    header: { text: number };
    context: { elements: number; minElements: number; elementTypes: string[] };
    actions: { elements: number; minElements: number; elementTypes: string[] };
    input: { label: number; hint: number; elementTypes: string[] };
    image: { alt_text: number; title: number; image_url: number };
  };
  elements: {
    button: { text: number; value: number; url: number; accessibility_label: number; style: string[] };
    static_select: { options: number; option_groups: number; placeholder: number };
    external_select: { placeholder: number };
    overflow: { options: number; minOptions: number };
    plain_text_input: { min_length_range: [number, number]; max_length_range: [number, number]; placeholder: number };
    checkboxes: { options: number; minOptions: number };
    radio_buttons: { options: number; minOptions: number };
  };
  surfaces: { notAllowedInMessage: string[]; notAllowedInModal: string[]; notAllowedInHome: string[] };
};

type Surface = 'message' | 'modal' | 'home';

class Checker {
  readonly problems: string[] = [];

  problem(path: string, text: string): void {
    this.problems.push(`${path}: ${text}`);
  }

  max(path: string, value: unknown, limit: number): void {
    if (typeof value === 'string' && value.length > limit) this.problem(path, `${value.length} characters, limit ${limit}`);
  }

  text(path: string, obj: unknown, limit: number, options: { plainOnly?: boolean; required?: boolean } = {}): void {
    if (obj === undefined) {
      if (options.required) this.problem(path, 'required text object missing');
      return;
    }
    const t = obj as Json;
    if (!L.composition.text.types.includes(String(t.type))) this.problem(path, `text type ${String(t.type)}`);
    if (options.plainOnly && t.type !== 'plain_text') this.problem(path, 'must be plain_text');
    if (typeof t.text !== 'string') return this.problem(path, 'text is not a string');
    if (t.text.length < L.composition.text.min) this.problem(path, 'empty text');
    this.max(`${path}.text`, t.text, Math.min(limit, L.composition.text.max));
  }

  confirm(path: string, c: unknown): void {
    if (c === undefined) return;
    const conf = c as Json;
    for (const key of ['title', 'text', 'confirm', 'deny']) if (conf[key] === undefined) this.problem(path, `confirm.${key} is required`);
    this.text(`${path}.title`, conf.title, L.composition.confirm.title, { plainOnly: true });
    this.text(`${path}.text`, conf.text, L.composition.confirm.text);
    this.text(`${path}.confirm`, conf.confirm, L.composition.confirm.confirm, { plainOnly: true });
    this.text(`${path}.deny`, conf.deny, L.composition.confirm.deny, { plainOnly: true });
    if (conf.style !== undefined && !['primary', 'danger'].includes(String(conf.style))) this.problem(path, 'confirm style');
  }

  option(path: string, o: unknown): void {
    const opt = o as Json;
    if (opt.text === undefined || opt.value === undefined) this.problem(path, 'option needs text and value');
    this.text(`${path}.text`, opt.text, L.composition.option.text);
    this.max(`${path}.value`, opt.value, L.composition.option.value);
    this.text(`${path}.description`, opt.description, L.composition.option.description, { plainOnly: true });
  }

  options(path: string, body: Json, maxOptions: number): void {
    const options = body.options as unknown[] | undefined;
    const groups = body.option_groups as Json[] | undefined;
    if (options && groups) this.problem(path, 'options and option_groups are exclusive');
    if (options) {
      if (options.length > maxOptions) this.problem(path, `${options.length} options, limit ${maxOptions}`);
      options.forEach((o, i) => this.option(`${path}.options[${i}]`, o));
    }
    if (groups) {
      if (groups.length > L.elements.static_select.option_groups) this.problem(path, 'too many option groups');
      groups.forEach((g, i) => {
        this.text(`${path}.option_groups[${i}].label`, g.label, L.composition.option_group.label, { plainOnly: true, required: true });
        const opts = (g.options as unknown[]) ?? [];
        if (opts.length > L.composition.option_group.options) this.problem(path, 'too many options in a group');
        opts.forEach((o, j) => this.option(`${path}.option_groups[${i}].options[${j}]`, o));
      });
    }
  }

  element(path: string, e: Json): void {
    this.max(`${path}.action_id`, e.action_id, L.common.action_id);
    if (e.placeholder !== undefined) this.text(`${path}.placeholder`, e.placeholder, L.composition.placeholder.text, { plainOnly: true });
    this.confirm(`${path}.confirm`, e.confirm);
    switch (e.type) {
      case 'button':
        this.text(`${path}.text`, e.text, L.elements.button.text, { plainOnly: true, required: true });
        this.max(`${path}.value`, e.value, L.elements.button.value);
        this.max(`${path}.url`, e.url, L.elements.button.url);
        this.max(`${path}.accessibility_label`, e.accessibility_label, L.elements.button.accessibility_label);
        if (e.style !== undefined && !L.elements.button.style.includes(String(e.style))) this.problem(path, `button style ${String(e.style)}`);
        break;
      case 'static_select':
      case 'multi_static_select':
        this.options(path, e, L.elements.static_select.options);
        break;
      case 'external_select':
      case 'multi_external_select':
        if (e.initial_option) this.option(`${path}.initial_option`, e.initial_option);
        break;
      case 'overflow': {
        const n = ((e.options as unknown[]) ?? []).length;
        if (n < L.elements.overflow.minOptions || n > L.elements.overflow.options) this.problem(path, `overflow has ${n} options`);
        this.options(path, e, L.elements.overflow.options);
        break;
      }
      case 'plain_text_input': {
        const [minLo, minHi] = L.elements.plain_text_input.min_length_range;
        const [maxLo, maxHi] = L.elements.plain_text_input.max_length_range;
        if (typeof e.min_length === 'number' && (e.min_length < minLo || e.min_length > minHi)) this.problem(path, 'min_length out of range');
        if (typeof e.max_length === 'number' && (e.max_length < maxLo || e.max_length > maxHi)) this.problem(path, 'max_length out of range');
        if (typeof e.initial_value === 'string' && typeof e.max_length === 'number' && e.initial_value.length > e.max_length)
          this.problem(path, 'initial_value longer than max_length');
        break;
      }
      case 'checkboxes':
      case 'radio_buttons': {
        const lim = e.type === 'checkboxes' ? L.elements.checkboxes : L.elements.radio_buttons;
        const n = ((e.options as unknown[]) ?? []).length;
        if (n < lim.minOptions || n > lim.options) this.problem(path, `${n} options`);
        this.options(path, e, lim.options);
        break;
      }
      default:
        break;
    }
  }

  block(path: string, b: Json, surface: Surface): void {
    const type = String(b.type);
    const banned = surface === 'message' ? L.surfaces.notAllowedInMessage : surface === 'modal' ? L.surfaces.notAllowedInModal : L.surfaces.notAllowedInHome;
    if (banned.includes(type)) this.problem(path, `${type} blocks are not allowed in a ${surface}`);
    this.max(`${path}.block_id`, b.block_id, L.common.block_id);
    switch (type) {
      case 'section': {
        if (b.text === undefined && b.fields === undefined) this.problem(path, 'section needs text or fields');
        if (b.text !== undefined) this.text(`${path}.text`, b.text, L.blocks.section.text);
        const fields = (b.fields as unknown[]) ?? [];
        if (fields.length > L.blocks.section.fields) this.problem(path, `${fields.length} fields`);
        fields.forEach((f, i) => this.text(`${path}.fields[${i}]`, f, L.blocks.section.fieldText));
        if (b.accessory) {
          const acc = b.accessory as Json;
          if (!L.blocks.section.accessoryTypes.includes(String(acc.type))) this.problem(path, `accessory type ${String(acc.type)}`);
          this.element(`${path}.accessory`, acc);
        }
        break;
      }
      case 'header':
        this.text(`${path}.text`, b.text, L.blocks.header.text, { plainOnly: true, required: true });
        break;
      case 'context': {
        const elements = (b.elements as Json[]) ?? [];
        if (elements.length < L.blocks.context.minElements || elements.length > L.blocks.context.elements)
          this.problem(path, `${elements.length} context elements`);
        elements.forEach((e, i) => {
          if (!L.blocks.context.elementTypes.includes(String(e.type))) this.problem(`${path}.elements[${i}]`, `type ${String(e.type)}`);
          if (e.type !== 'image') this.text(`${path}.elements[${i}]`, e, L.composition.text.max);
        });
        break;
      }
      case 'actions': {
        const elements = (b.elements as Json[]) ?? [];
        if (elements.length < L.blocks.actions.minElements || elements.length > L.blocks.actions.elements)
          this.problem(path, `${elements.length} action elements`);
        elements.forEach((e, i) => {
          if (!L.blocks.actions.elementTypes.includes(String(e.type))) this.problem(`${path}.elements[${i}]`, `type ${String(e.type)}`);
          this.element(`${path}.elements[${i}]`, e);
        });
        const ids = elements.map((e) => e.action_id).filter((id) => id !== undefined);
        if (new Set(ids).size !== ids.length) this.problem(path, 'duplicate action_id in one block');
        break;
      }
      case 'input': {
        if (surface === 'message') this.problem(path, 'input blocks belong in modals');
        this.text(`${path}.label`, b.label, L.blocks.input.label, { plainOnly: true, required: true });
        if (b.hint !== undefined) this.text(`${path}.hint`, b.hint, L.blocks.input.hint, { plainOnly: true });
        const el = b.element as Json | undefined;
        if (!el) this.problem(path, 'input needs an element');
        else {
          if (!L.blocks.input.elementTypes.includes(String(el.type))) this.problem(path, `input element ${String(el.type)}`);
          this.element(`${path}.element`, el);
        }
        break;
      }
      case 'divider':
        break;
      case 'image':
        this.max(`${path}.alt_text`, b.alt_text, L.blocks.image.alt_text);
        this.max(`${path}.image_url`, b.image_url, L.blocks.image.image_url);
        break;
      default:
        break;
    }
  }

  blocks(path: string, blocks: unknown, surface: Surface, maxBlocks: number): void {
    if (!Array.isArray(blocks)) return this.problem(path, 'blocks must be an array');
    if (blocks.length > maxBlocks) this.problem(path, `${blocks.length} blocks, limit ${maxBlocks}`);
    const ids = blocks.map((b: Json) => b.block_id).filter((id) => id !== undefined);
    if (new Set(ids).size !== ids.length) this.problem(path, 'duplicate block_id');
    blocks.forEach((b: Json, i) => this.block(`${path}[${i}]`, b, surface));
  }
}

/** A message body (chat.postMessage / respond / ack). */
export function messageProblems(message: unknown): string[] {
  const c = new Checker();
  const m = message as Json;
  if (m.blocks !== undefined) c.blocks('blocks', m.blocks, 'message', L.message.maxBlocks);
  if ((m.text === undefined || m.text === '') && m.blocks === undefined && m.delete_original !== true) c.problem('text', 'a message needs text or blocks');
  if (m.blocks !== undefined && (typeof m.text !== 'string' || m.text.length === 0)) c.problem('text', 'fallback text missing next to blocks');
  return c.problems;
}

export function modalProblems(view: unknown): string[] {
  const c = new Checker();
  const v = view as Json;
  if (v.type !== 'modal') c.problem('type', 'must be modal');
  c.text('title', v.title, L.modal.title, { plainOnly: true, required: true });
  if (v.submit !== undefined) c.text('submit', v.submit, L.modal.submit, { plainOnly: true });
  if (v.close !== undefined) c.text('close', v.close, L.modal.close, { plainOnly: true });
  c.max('private_metadata', v.private_metadata, L.modal.private_metadata);
  c.max('callback_id', v.callback_id, L.modal.callback_id);
  c.max('external_id', v.external_id, L.modal.external_id);
  c.blocks('blocks', v.blocks, 'modal', L.modal.maxBlocks);
  const hasInput = Array.isArray(v.blocks) && (v.blocks as Json[]).some((b) => b.type === 'input');
  if (hasInput && v.submit === undefined) c.problem('submit', 'required when the modal has an input block');
  return c.problems;
}

export function homeProblems(view: unknown): string[] {
  const c = new Checker();
  const v = view as Json;
  if (v.type !== 'home') c.problem('type', 'must be home');
  c.max('private_metadata', v.private_metadata, L.home.private_metadata);
  c.max('callback_id', v.callback_id, L.home.callback_id);
  c.blocks('blocks', v.blocks, 'home', L.home.maxBlocks);
  return c.problems;
}

/** The ack body of an options (block_suggestion) request. */
export function optionsProblems(body: unknown): string[] {
  const c = new Checker();
  c.options('options', body as Json, L.elements.static_select.options);
  return c.problems;
}

/** Every payload the app sent to the fake Slack, checked by the surface it belongs to. */
export function sentPayloadProblems(calls: readonly { method: string; body: Json }[], responses: readonly { body: Json }[]): string[] {
  const problems: string[] = [];
  for (const call of calls) {
    const where = `${call.method}`;
    if (call.method === 'chat.postMessage' || call.method === 'chat.postEphemeral' || call.method === 'chat.update') {
      problems.push(...messageProblems(call.body).map((p) => `${where} ${p}`));
    } else if (call.method.startsWith('views.')) {
      const view = call.body.view as Json;
      const list = view?.type === 'home' ? homeProblems(view) : modalProblems(view);
      problems.push(...list.map((p) => `${where} ${p}`));
    }
  }
  for (const response of responses) problems.push(...messageProblems(response.body).map((p) => `response_url ${p}`));
  return problems;
}
