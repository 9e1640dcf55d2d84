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

/** Every interactive element with this action_id in a payload (buttons, selects, inputs). */
export function findElements(payload: unknown, actionId: string): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (value === null || typeof value !== 'object') return;
    const obj = value as Record<string, unknown>;
    if (obj.action_id === actionId) found.push(obj);
    Object.values(obj).forEach(walk);
  };
  walk(payload);
  return found;
}

/** The value of the first button with this action_id. */
export function buttonValue(payload: unknown, actionId: string): string {
  const [button] = findElements(payload, actionId);
  if (!button || typeof button.value !== 'string') throw new Error(`no ${actionId} button with a value in ${JSON.stringify(payload).slice(0, 300)}`);
  return button.value;
}
