/**
 * Slack mrkdwn helpers. Everything a user or the video service supplies (stream names, aliases,
 * signal data, error messages) goes through `escapeMrkdwn` before it is placed in a mrkdwn
 * text object, so that nobody can ping `@channel`, mention people or forge links with
 * `<!channel>`, `<@U…>` or `<https://…|…>`.
 */

/** Escapes the three characters Slack gives meaning to in mrkdwn control sequences. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Decodes the entities Slack puts into slash-command text and message text (`&amp;`, `&lt;`,
 * `&gt;`) back into the characters the user typed.
 */
export function decodeSlackEntities(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/**
 * An inline code span for identifiers. Backticks inside would end the span early, so they
 * become a look-alike; the rest is escaped.
 */
export function code(text: string): string {
  if (text.length === 0) return '` `';
  return '`' + escapeMrkdwn(text.replace(/`/g, 'ˋ')) + '`';
}

/** A mention that Slack renders as the user's current display name. Only for Slack user IDs. */
export function userMention(userId: string): string {
  if (!/^[UW][A-Z0-9]+$/.test(userId)) return escapeMrkdwn(userId);
  return `<@${userId}>`;
}

/** A channel reference rendered as #name by Slack. Only for Slack channel IDs. */
export function channelMention(channelId: string): string {
  if (!/^[CGD][A-Z0-9]+$/.test(channelId)) return escapeMrkdwn(channelId);
  return `<#${channelId}>`;
}

/**
 * Shortens text to at most `max` UTF-16 code units (counting the ellipsis; conservative against
 * Slack's character limits), never splitting a surrogate pair.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max < 1) return '';
  return dropTrailingHighSurrogate(text.slice(0, max - 1)) + '…';
}

function dropTrailingHighSurrogate(text: string): string {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? text.slice(0, -1) : text;
}

/**
 * Escapes then truncates user text for a mrkdwn field of at most `max` characters, never
 * cutting an entity such as `&amp;` in half.
 */
export function escapeAndTruncate(text: string, max: number): string {
  const escaped = escapeMrkdwn(text);
  if (escaped.length <= max) return escaped;
  let cut = escaped.slice(0, max - 1);
  const amp = cut.lastIndexOf('&');
  if (amp !== -1 && !cut.slice(amp).includes(';')) cut = cut.slice(0, amp);
  return dropTrailingHighSurrogate(cut) + '…';
}
