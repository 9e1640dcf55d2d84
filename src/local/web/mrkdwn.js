/**
 * Slack text → safe HTML. Pure functions (no DOM), shared by the page and its jest tests.
 *
 * Slack mrkdwn arrives escaped (`&amp; &lt; &gt;`); every `<…>` in it is a control sequence
 * (link, mention, date). Whatever the input, the output never carries markup the text did not
 * ask for through one of those sequences: text is decoded once and HTML-escaped once.
 */

const HTML_ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** Undoes Slack's three entities (and only those). */
export function decodeSlackEntities(text) {
  return String(text).replace(/&(amp|lt|gt);/g, (_, name) => ({ amp: '&', lt: '<', gt: '>' })[name]);
}

const SAFE_URL = /^(https?:|mailto:|tel:|slack:)/i;

/** A URL usable as href/src: http(s), mailto, tel, slack, or a same-origin path; otherwise null. */
export function safeUrl(url) {
  const trimmed = String(url ?? '').trim();
  if (SAFE_URL.test(trimmed)) return trimmed;
  if (trimmed.startsWith('/') && !trimmed.startsWith('//')) return trimmed;
  return null;
}

/** The emoji the app's messages use, plus common ones; unknown names stay as `:name:`. */
const EMOJI = {
  warning: '⚠️',
  white_check_mark: '✅',
  hourglass_flowing_sand: '⏳',
  hourglass: '⌛',
  red_circle: '🔴',
  large_green_circle: '🟢',
  large_yellow_circle: '🟡',
  white_circle: '⚪',
  black_circle: '⚫',
  black_square_for_stop: '⏹️',
  double_vertical_bar: '⏸️',
  arrow_forward: '▶️',
  arrow_down: '⬇️',
  frame_with_picture: '🖼️',
  eyes: '👀',
  wastebasket: '🗑️',
  telephone_receiver: '📞',
  outbox_tray: '📤',
  inbox_tray: '📥',
  movie_camera: '🎥',
  label: '🏷️',
  headphones: '🎧',
  closed_caption: '🆑',
  1234: '🔢',
  sparkles: '✨',
  pushpin: '📌',
  no_entry: '⛔',
  no_entry_sign: '🚫',
  no_bell: '🔕',
  bell: '🔔',
  lock: '🔒',
  unlock: '🔓',
  link: '🔗',
  key: '🔑',
  film_frames: '🎞️',
  desktop_computer: '🖥️',
  calendar: '📅',
  spiral_calendar_pad: '🗓️',
  x: '❌',
  heavy_check_mark: '✔️',
  information_source: 'ℹ️',
  bar_chart: '📊',
  chart_with_upwards_trend: '📈',
  satellite_antenna: '📡',
  satellite: '🛰️',
  rotating_light: '🚨',
  bust_in_silhouette: '👤',
  busts_in_silhouette: '👥',
  speech_balloon: '💬',
  gear: '⚙️',
  wrench: '🔧',
  tada: '🎉',
  fire: '🔥',
  clock3: '🕒',
  stopwatch: '⏱️',
  mute: '🔇',
  speaker: '🔈',
  sound: '🔉',
  loud_sound: '🔊',
  microphone: '🎤',
  studio_microphone: '🎙️',
  video_camera: '📹',
  tv: '📺',
  radio_button: '🔘',
  recycle: '♻️',
  zap: '⚡',
  arrows_counterclockwise: '🔄',
  mag: '🔍',
  memo: '📝',
  page_facing_up: '📄',
  file_folder: '📁',
  floppy_disk: '💾',
  cloud: '☁️',
  package: '📦',
  rocket: '🚀',
  thumbsup: '👍',
  '+1': '👍',
  wave: '👋',
  broadcast: '📡',
  rtmp: '📡',
  hls: '📺',
  render: '🖼️',
  archive: '🗄️',
  user: '👤',
  exclamation: '❗',
  question: '❓',
  heavy_plus_sign: '➕',
  heavy_minus_sign: '➖',
  small_blue_diamond: '🔹',
  pencil2: '✏️',
  email: '📧',
  globe_with_meridians: '🌐',
  shield: '🛡️',
  robot_face: '🤖',
  door: '🚪',
  stop_sign: '🛑',
};

/** Replaces `:name:` with the emoji character where known. Works on escaped or plain text. */
export function emojify(text) {
  return String(text).replace(/:([a-z0-9_+-]+):/g, (whole, name) => EMOJI[name] ?? whole);
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function dateParts(epochSeconds, timeZone) {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
    weekday: 'long',
    hour12: true,
  });
  const parts = Object.fromEntries(format.formatToParts(new Date(epochSeconds * 1000)).map((p) => [p.type, p.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    weekday: parts.weekday,
    time: `${parts.hour}:${parts.minute} ${parts.dayPeriod}`,
    timeSecs: `${parts.hour}:${parts.minute}:${parts.second} ${parts.dayPeriod}`,
  };
}

function dayOffset(epochSeconds, nowMs, timeZone) {
  const day = (ms) => {
    const p = dateParts(ms / 1000, timeZone);
    return Date.UTC(p.year, p.month - 1, p.day) / 86_400_000;
  };
  return day(epochSeconds * 1000) - day(nowMs);
}

/**
 * Slack's `<!date^epoch^format|fallback>` tokens ({date_num}, {date}, {date_short}, {date_long},
 * their `_pretty` forms, {time}, {time_secs}) in `timeZone` (the browser's when undefined).
 */
export function formatSlackDate(epochSeconds, format, { timeZone, nowMs = Date.now() } = {}) {
  if (!Number.isFinite(epochSeconds)) return null;
  const p = dateParts(epochSeconds, timeZone);
  const monthName = MONTHS[p.month - 1];
  const pretty = (plain) => {
    const offset = dayOffset(epochSeconds, nowMs, timeZone);
    if (offset === 0) return 'Today';
    if (offset === -1) return 'Yesterday';
    if (offset === 1) return 'Tomorrow';
    return plain;
  };
  const tokens = {
    date_num: `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`,
    date: `${monthName} ${p.day}, ${p.year}`,
    date_short: `${monthName.slice(0, 3)} ${p.day}, ${p.year}`,
    date_long: `${p.weekday}, ${monthName} ${p.day}, ${p.year}`,
    time: p.time,
    time_secs: p.timeSecs,
  };
  tokens.date_pretty = pretty(tokens.date);
  tokens.date_short_pretty = pretty(tokens.date_short);
  tokens.date_long_pretty = pretty(tokens.date_long);
  return format.replace(/\{([a-z_]+)\}/g, (whole, name) => tokens[name] ?? whole);
}

// Placeholders for already-rendered HTML while the rest of the text is escaped and formatted.
const HOLD_OPEN = '\uE000';
const HOLD_CLOSE = '\uE001';
const HOLD_PATTERN = /\uE000(\d+)\uE001/g;

function linkHtml(url, label) {
  const href = safeUrl(url);
  const text = escapeHtml(label ?? url);
  if (!href) return text;
  return `<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer">${text}</a>`;
}

/** One `<…>` control sequence (its inside, already entity-decoded) as HTML. */
function controlSequenceHtml(inside, ctx) {
  const bar = inside.indexOf('|');
  const target = bar === -1 ? inside : inside.slice(0, bar);
  const label = bar === -1 ? undefined : inside.slice(bar + 1);
  if (target.startsWith('@')) {
    const id = target.slice(1);
    const name = label ?? ctx.users?.[id] ?? id;
    return `<span class="mention" data-user="${escapeHtml(id)}">@${escapeHtml(name)}</span>`;
  }
  if (target.startsWith('#')) {
    const id = target.slice(1);
    const name = label ?? ctx.channels?.[id] ?? id;
    return `<span class="mention channel" data-channel="${escapeHtml(id)}">#${escapeHtml(name)}</span>`;
  }
  if (target.startsWith('!')) {
    const [command, ...args] = target.slice(1).split('^');
    if (command === 'date') {
      const epochSeconds = Number(args[0]);
      const formatted = formatSlackDate(epochSeconds, args[1] ?? '{date}', ctx);
      const link = args[2] ? safeUrl(args[2]) : null;
      const datetime = formatted === null ? '' : ` datetime="${new Date(epochSeconds * 1000).toISOString()}"`;
      const body = `<time${datetime} title="${escapeHtml(label ?? '')}">${escapeHtml(formatted ?? label ?? '')}</time>`;
      return link ? `<a href="${escapeHtml(link)}" target="_blank" rel="noopener noreferrer">${body}</a>` : body;
    }
    if (command === 'subteam') return `<span class="mention">@${escapeHtml(label ?? args[0] ?? 'team')}</span>`;
    return `<span class="mention">@${escapeHtml(label ?? command)}</span>`;
  }
  return linkHtml(target, label);
}

/** Bold, italic, strike on escaped text (no markup in it but placeholders). */
function applyEmphasis(html) {
  const edge = '(^|[\\s(\\[{>"\'.,;:!?\\-~_*\uE001])';
  const after = '(?=$|[\\s)\\]}<"\'.,;:!?\\-~_*\uE000])';
  const rule = (mark, tag) => {
    const m = mark.replace(/[*~]/g, '\\$&');
    return [new RegExp(`${edge}${m}(?=\\S)([^\\n]*?\\S)${m}${after}`, 'g'), tag];
  };
  for (const [pattern, tag] of [rule('*', 'strong'), rule('_', 'em'), rule('~', 'del')]) {
    html = html.replace(pattern, (_, before, inner) => `${before}<${tag}>${inner}</${tag}>`);
  }
  return html;
}

/**
 * Slack mrkdwn → HTML: *bold*, _italic_, ~strike~, `code`, ```pre```, > quotes, links, user,
 * channel and special mentions, dates, emoji and line breaks. `ctx`: `{users, channels}` (id →
 * name) and `timeZone` for dates.
 */
export function mrkdwnToHtml(text, ctx = {}) {
  const held = [];
  const hold = (html) => `${HOLD_OPEN}${held.push(html) - 1}${HOLD_CLOSE}`;
  let source = String(text ?? '').replace(/[\uE000\uE001]/g, '');

  // Code first: nothing inside it is formatted; entities are still Slack's.
  source = source.replace(/```\n?([\s\S]*?)\n?```\n?/g, (_, inner) => hold(`<pre class="code-block">${escapeHtml(decodeSlackEntities(inner))}</pre>`));
  source = source.replace(/`([^`\n]+)`/g, (_, inner) => hold(`<code>${escapeHtml(decodeSlackEntities(inner))}</code>`));
  source = source.replace(/<([^<>\n]+)>/g, (_, inside) => hold(controlSequenceHtml(decodeSlackEntities(inside), ctx)));

  const lines = source.split('\n').map((line) => {
    const quote = /^(&gt;|>)\s?/.exec(line);
    const body = quote ? line.slice(quote[0].length) : line;
    const html = applyEmphasis(emojify(escapeHtml(decodeSlackEntities(body))));
    return { quote: Boolean(quote), html };
  });

  let out = '';
  for (let i = 0; i < lines.length; i++) {
    const { quote, html } = lines[i];
    if (quote) {
      const quoted = [html];
      while (i + 1 < lines.length && lines[i + 1].quote) quoted.push(lines[++i].html);
      out += `<blockquote>${quoted.join('<br>')}</blockquote>`;
    } else {
      out += html;
      if (i + 1 < lines.length && !lines[i + 1].quote) out += '<br>';
    }
  }
  return out.replace(HOLD_PATTERN, (_, index) => held[Number(index)]);
}

/** plain_text → HTML (escaped; emoji when `emoji` is not false; line breaks kept). */
export function plainToHtml(text, { emoji = true } = {}) {
  const escaped = escapeHtml(text ?? '');
  return (emoji ? emojify(escaped) : escaped).replace(/\n/g, '<br>');
}

/** A Slack text object (`plain_text` or `mrkdwn`) → HTML. */
export function textObjectToHtml(textObject, ctx = {}) {
  if (!textObject) return '';
  if (typeof textObject === 'string') return mrkdwnToHtml(textObject, ctx);
  if (textObject.type === 'plain_text') return plainToHtml(textObject.text, { emoji: textObject.emoji !== false });
  return mrkdwnToHtml(textObject.text, ctx);
}

/** A text object as plain words (labels, aria attributes, option text). */
export function textObjectToPlain(textObject) {
  if (!textObject) return '';
  if (typeof textObject === 'string') return textObject;
  const raw = textObject.type === 'mrkdwn' ? decodeSlackEntities(textObject.text ?? '') : (textObject.text ?? '');
  return emojify(raw);
}
