/**
 * Messages → HTML strings, pure: the channel's timeline with threads under their parents,
 * ephemeral and edited markers, files (images shown inline). See blocks.js for the blocks.
 */
import { renderBlocks } from './blocks.js';
import { escapeHtml, mrkdwnToHtml, safeUrl } from './mrkdwn.js';

/** Slack ts ("1700000000.000100") → number for ordering. */
function tsNumber(ts) {
  return Number(ts ?? 0);
}

function isReply(message) {
  return message.thread_ts !== undefined && message.thread_ts !== message.ts;
}

/**
 * One channel's timeline: top-level messages in ts order, each with its replies in ts order.
 * A reply whose parent is not in the list is shown at top level rather than lost.
 */
export function channelTimeline(messages, channel) {
  const inChannel = messages.filter((m) => m.channel === channel).sort((a, b) => tsNumber(a.ts) - tsNumber(b.ts));
  const parents = new Map();
  for (const message of inChannel) if (!isReply(message)) parents.set(message.ts, { message, replies: [] });
  const timeline = [];
  for (const message of inChannel) {
    if (!isReply(message)) timeline.push(parents.get(message.ts));
    else if (parents.has(message.thread_ts)) parents.get(message.thread_ts).replies.push(message);
    else timeline.push({ message, replies: [] });
  }
  return timeline;
}

/** hh:mm of a Slack ts, in `timeZone` (the browser's when undefined). */
export function messageTime(ts, timeZone) {
  const date = new Date(tsNumber(ts) * 1000);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone }).format(date);
}

function author(message, ctx) {
  if (message.bot_id || message.user === ctx.botUserId || !message.user) return { name: ctx.botName ?? 'vidops', bot: true };
  return { name: ctx.users?.[message.user] ?? message.user, bot: false };
}

function filesHtml(files) {
  return (files ?? [])
    .map((file) => {
      const url = safeUrl(file.url ?? file.url_private);
      const title = file.title ?? file.name ?? 'file';
      if (url && String(file.mimetype ?? '').startsWith('image/')) {
        return `<figure class="msg-file msg-file--image"><img src="${escapeHtml(url)}" alt="${escapeHtml(title)}"><figcaption>${escapeHtml(title)}</figcaption></figure>`;
      }
      const name = escapeHtml(file.name ?? title);
      return url
        ? `<a class="msg-file msg-file--link" href="${escapeHtml(url)}" download="${name}">📄 ${escapeHtml(title)}</a>`
        : `<span class="msg-file">📄 ${escapeHtml(title)}</span>`;
    })
    .join('');
}

/** One message (no replies). `ctx`: users, channels, timeZone, botName, botUserId. */
export function renderMessage(message, ctx = {}) {
  const who = author(message, ctx);
  const initial = escapeHtml((who.name[0] ?? '?').toUpperCase());
  const badges = [
    who.bot ? '<span class="badge badge--app">APP</span>' : '',
    message.ephemeral ? '<span class="badge badge--ephemeral">Only visible to you</span>' : '',
  ].join('');
  const body = message.blocks?.length ? renderBlocks(message.blocks, ctx) : `<div class="msg-text">${mrkdwnToHtml(message.text ?? '', ctx)}</div>`;
  const edited = message.edited ? '<span class="msg-edited">(edited)</span>' : '';
  const classes = ['msg', message.ephemeral ? 'msg--ephemeral' : '', isReply(message) ? 'msg--reply' : ''].filter(Boolean).join(' ');
  return (
    `<article class="${classes}" data-channel="${escapeHtml(message.channel)}" data-ts="${escapeHtml(message.ts)}" aria-label="${escapeHtml(`Message from ${who.name}`)}">` +
    `<div class="msg-avatar${who.bot ? ' msg-avatar--bot' : ''}" aria-hidden="true">${initial}</div>` +
    `<div class="msg-main"><div class="msg-head"><span class="msg-author">${escapeHtml(who.name)}</span>${badges}<time class="msg-time">${escapeHtml(messageTime(message.ts, ctx.timeZone))}</time>${edited}</div>` +
    `<div class="msg-body">${body}</div>${filesHtml(message.files)}</div></article>`
  );
}

/** A parent with its thread: "N replies" toggle, and the replies when `expanded`. */
export function renderThreadEntry({ message, replies }, expanded, ctx = {}) {
  if (replies.length === 0) return renderMessage(message, ctx);
  const count = `${replies.length} ${replies.length === 1 ? 'reply' : 'replies'}`;
  const toggle = `<button type="button" class="thread-toggle" data-thread-ts="${escapeHtml(message.ts)}" aria-expanded="${expanded ? 'true' : 'false'}">${expanded ? `Hide ${count}` : count}</button>`;
  const thread = expanded
    ? `<div class="thread" role="region" aria-label="${escapeHtml(`Thread of ${message.ts}`)}">${replies.map((reply) => renderMessage(reply, ctx)).join('')}</div>`
    : '';
  return `<div class="thread-entry">${renderMessage(message, ctx)}<div class="thread-summary">${toggle}</div>${thread}</div>`;
}

const EMPTY_CHANNEL = '<div class="empty">No messages yet. Type a command below, e.g. <code>/record start</code> or <code>/usage</code>.</div>';

/**
 * The channel view as keyed pieces, one per top-level message (with its thread), so the page can
 * replace only the pieces that changed and leave the rest of the DOM (focus, a half-clicked
 * button, what a test is pointing at) alone. `expandedThreads`: set of parent ts shown open.
 */
export function channelEntries(messages, channel, expandedThreads, ctx = {}) {
  const timeline = channelTimeline(messages, channel);
  if (timeline.length === 0) return [{ key: 'empty', html: EMPTY_CHANNEL }];
  return timeline.map((entry) => ({ key: entry.message.ts, html: renderThreadEntry(entry, expandedThreads.has(entry.message.ts), ctx) }));
}

/** The whole channel view as one string. */
export function renderChannel(messages, channel, expandedThreads, ctx = {}) {
  return channelEntries(messages, channel, expandedThreads, ctx)
    .map((entry) => entry.html)
    .join('');
}
