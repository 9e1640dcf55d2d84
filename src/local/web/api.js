/** The page's calls to the stand-in (PROTOCOL.md, "Page → stand-in"). */

async function parse(response) {
  const text = await response.text();
  let body;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    body = { ok: false, error: `HTTP ${response.status}` };
  }
  if (!response.ok && body.ok !== false) return { ok: false, error: `HTTP ${response.status}`, status: response.status };
  return { ...body, status: response.status };
}

export async function getJson(path) {
  return parse(await fetch(path, { headers: { accept: 'application/json' } }));
}

export async function postJson(path, body = {}) {
  return parse(await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
}

export const local = {
  state: () => getJson('/local/state'),
  command: (channel, text) => postJson('/local/command', { channel, text }),
  action: (payload) => postJson('/local/action', payload),
  submit: (viewId, values) => postJson('/local/submit', { viewId, values }),
  close: (viewId) => postJson('/local/close', { viewId }),
  options: (payload) => postJson('/local/options', payload),
  home: () => postJson('/local/home'),
  emulator: (action, body = {}) => postJson(`/local/emulator/${action}`, body),
};
