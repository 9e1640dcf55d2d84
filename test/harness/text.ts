/** Everything a person would read in a payload: the fallback text and every text object, joined. */
export function visibleText(payload: unknown): string {
  const out: string[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (value === null || typeof value !== 'object') return;
    const obj = value as Record<string, unknown>;
    if ((obj.type === 'mrkdwn' || obj.type === 'plain_text') && typeof obj.text === 'string') out.push(obj.text);
    for (const [key, child] of Object.entries(obj)) {
      if (key === 'value' || key === 'private_metadata' || key === 'action_id' || key === 'block_id') continue;
      if (key === 'text' && typeof child === 'string' && obj.type === undefined) out.push(child);
      walk(child);
    }
  };
  walk(payload);
  return out.join('\n');
}

/** What Slack renders: like `visibleText`, with Slack's three entities decoded. */
export function renderedText(payload: unknown): string {
  return visibleText(payload).replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}
