/**
 * RTMP outputs as people type them, and what may be shown of them.
 *
 * A stream name is a stream key: whoever holds it can publish on the destination channel. It is
 * never shown back (cards, replies, errors), audited or logged; an output is described by its id
 * and its server's host only. Server URLs are shown without credentials or query.
 */
import { MAX_RTMP_OUTPUTS, type RtmpOutput } from '../../api';
import { RTMP_URL_EXAMPLE, rtmpHost } from '../../kinds/broadcast';

export { MAX_RTMP_OUTPUTS };

export const RTMP_SPEC_EXAMPLE = 'rtmps://live.example.com:443/app/STREAM-KEY';

/** Output ids: short names people type (`yt`, `twitch-main`). */
const OUTPUT_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export type RtmpParse = { ok: true; output: RtmpOutput } | { ok: false; problem: string };

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** `rtmps://host:port/path` — no user name, password, query or fragment. Undefined when unreadable. */
export function displayServerUrl(serverUrl: string): string | undefined {
  const url = parseUrl(serverUrl.trim());
  if (!url || url.hostname === '') return undefined;
  return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
}

/** A problem with a server URL (the part before the stream key), or undefined when it is usable. */
export function serverUrlProblem(serverUrl: string): string | undefined {
  const text = serverUrl.trim();
  const url = parseUrl(text);
  if (!url || (url.protocol !== 'rtmp:' && url.protocol !== 'rtmps:') || url.hostname === '') {
    return `that is not an rtmp:// or rtmps:// server URL; it looks like ${RTMP_URL_EXAMPLE}`;
  }
  if (url.port === '') {
    const shown = `${url.protocol}//${url.hostname}${url.pathname === '/' ? '' : url.pathname}`;
    return `${shown} needs a port, e.g. ${RTMP_URL_EXAMPLE}`;
  }
  return undefined;
}

/** A problem with an output id, or undefined. */
export function outputIdProblem(id: string): string | undefined {
  return OUTPUT_ID.test(id) ? undefined : 'an output id uses letters, digits, “.”, “-” and “_” (at most 64), starting with a letter or digit';
}

/**
 * `[id=]rtmps://host:port/app/KEY`: the last path segment (with any query) is the stream name,
 * the rest the server URL. Problems never quote the stream key.
 */
export function parseRtmpSpec(spec: string): RtmpParse {
  let text = spec.trim();
  let id: string | undefined;
  const named = /^([^=:/]+)=(.*)$/s.exec(text);
  if (named) {
    id = named[1]!;
    text = named[2]!;
    const idProblem = outputIdProblem(id);
    if (idProblem) return { ok: false, problem: idProblem };
  }
  const scheme = /^(rtmps?):\/\//i.exec(text);
  if (!scheme) {
    return { ok: false, problem: `an output is an rtmp:// or rtmps:// URL ending with the stream key, e.g. ${RTMP_SPEC_EXAMPLE}` };
  }
  const afterScheme = text.slice(scheme[0].length);
  const slash = afterScheme.indexOf('/');
  const authority = slash === -1 ? afterScheme : afterScheme.slice(0, slash);
  const rest = slash === -1 ? '' : afterScheme.slice(slash);
  const query = rest.indexOf('?');
  const path = query === -1 ? rest : rest.slice(0, query);
  const lastSlash = path.lastIndexOf('/');
  const serverPath = lastSlash <= 0 ? '' : rest.slice(0, lastSlash);
  const streamName = lastSlash === -1 ? '' : rest.slice(lastSlash + 1);
  const serverUrl = `${scheme[1]!.toLowerCase()}://${authority}${serverPath}`;
  if (serverPath === '' || streamName === '') {
    const shown = displayServerUrl(serverUrl);
    const what = shown ? `${shown} needs` : 'the URL needs';
    return { ok: false, problem: `${what} the application path and the stream key at the end, e.g. ${RTMP_SPEC_EXAMPLE}` };
  }
  const problem = serverUrlProblem(serverUrl);
  if (problem) return { ok: false, problem };
  return { ok: true, output: { ...(id !== undefined ? { id } : {}), serverUrl, streamName } };
}

/** The sentence for more outputs than a broadcast takes. */
export function tooManyOutputs(count: number): string {
  return `a broadcast has at most ${MAX_RTMP_OUTPUTS} RTMP outputs (${count} were given); start a second broadcast with its own --tag for more`;
}

/** Problems of a set of outputs as a whole: how many, and duplicate ids. */
export function outputsProblem(outputs: readonly { id?: string }[]): string | undefined {
  if (outputs.length > MAX_RTMP_OUTPUTS) return tooManyOutputs(outputs.length);
  const seen = new Set<string>();
  for (const output of outputs) {
    if (output.id === undefined) continue;
    if (seen.has(output.id)) return `two outputs are named “${output.id}”; output ids must be unique`;
    seen.add(output.id);
  }
  return undefined;
}

/** How audits and logs name an output: `yt → live.example.com` (never its stream key). */
export function describeOutput(output: { id?: string; serverUrl: string }, index: number): string {
  return `${output.id ?? `#${index + 1}`} → ${rtmpHost(output.serverUrl)}`;
}
