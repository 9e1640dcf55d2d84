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
 * Cuts mrkdwn to at most `max` UTF-16 units (ellipsis included) without leaving half an entity
 * (`&amp;`), a mention or link (`<@U…>`), an open code span or half a surrogate pair behind.
 */
export function cutMrkdwn(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, Math.max(0, max - 1));
  const amp = cut.lastIndexOf('&');
  if (amp !== -1 && !cut.slice(amp).includes(';')) cut = cut.slice(0, amp);
  const lt = cut.lastIndexOf('<');
  if (lt !== -1 && !cut.slice(lt).includes('>')) cut = cut.slice(0, lt);
  if ((cut.match(/`/g) ?? []).length % 2 === 1) cut = cut.slice(0, cut.lastIndexOf('`'));
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return cut + '…';
}

/** Escapes user text, then cuts it to at most `max` characters for a mrkdwn field. */
export function escapeAndTruncate(text: string, max: number): string {
  return cutMrkdwn(escapeMrkdwn(text), max);
}
