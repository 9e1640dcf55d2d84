import { z } from 'zod';
import type { ResourceContext } from './context';
import { type CallOptions, parseData, parseJson } from './http';
import { RESOLUTIONS, type Resolution, projectIdOf, wireId } from './schemas';
import { fail, maxChars, optionalBoolean, optionalIpAddress, optionalOneOf, optionalString } from './validate';

export const MEDIA_MODES = ['routed', 'relayed'] as const;
export type MediaMode = (typeof MEDIA_MODES)[number];
export const ARCHIVE_MODES = ['manual', 'always'] as const;
export type ArchiveMode = (typeof ARCHIVE_MODES)[number];

export interface CreateSessionOptions {
  /** `routed` (default; media router, needed for archives, broadcasts, SIP, Audio Connector) or `relayed` (p2p). */
  mediaMode?: MediaMode;
  /** `always` archives automatically and needs mediaMode `routed`. */
  archiveMode?: ArchiveMode;
  /** Up to 80 characters; only with archiveMode `always`. */
  archiveName?: string;
  /** Only with archiveMode `always`; default 640x480. */
  archiveResolution?: Resolution;
  e2ee?: boolean;
  /** IP address used as a location hint. */
  location?: string;
}

export const sessionSchema = z
  .looseObject({
    session_id: z.string().min(1),
    project_id: wireId.optional(),
    partner_id: wireId.optional(),
    create_dt: z.string().optional(),
    media_server_url: z.string().optional(),
  })
  .transform((session) => ({
    ...session,
    sessionId: session.session_id,
    projectId: projectIdOf({ projectId: session.project_id, partnerId: session.partner_id }),
  }));
/** Wire fields kept as sent, plus camel-case `sessionId` and `projectId`. */
export type Session = z.output<typeof sessionSchema>;

const sessionCreateResponseSchema = z.union([z.array(sessionSchema).min(1), sessionSchema]);

/** JSON array (current) or object; the deprecated XML form is read too, should a proxy drop our Accept header. */
export function parseSessionCreateBody(body: string): Session {
  const text = body.trim();
  if (text.startsWith('<')) {
    const session = text.match(/<Session>([\s\S]*?)<\/Session>/)?.[1] ?? text;
    const fields: Record<string, string> = {};
    for (const [, name, value] of session.matchAll(/<(\w+)>([^<]*)<\/\1>/g)) fields[name!] = value!;
    return parseData(sessionSchema, fields);
  }
  const parsed = parseJson(sessionCreateResponseSchema, text);
  return Array.isArray(parsed) ? parsed[0]! : parsed;
}

export function sessionCreateForm(options: CreateSessionOptions = {}): Record<string, string> {
  const mediaMode = optionalOneOf('mediaMode', options.mediaMode, MEDIA_MODES);
  const archiveMode = optionalOneOf('archiveMode', options.archiveMode, ARCHIVE_MODES);
  const archiveName = optionalString('archiveName', options.archiveName, '"Weekly sync"');
  maxChars('archiveName', archiveName, 80, '"Weekly sync"');
  const archiveResolution = optionalOneOf('archiveResolution', options.archiveResolution, RESOLUTIONS);
  const e2ee = optionalBoolean('e2ee', options.e2ee);
  const location = optionalIpAddress('location', options.location);
  if (archiveMode !== 'always') {
    if (archiveName !== undefined) fail('archiveName', 'applies only with archiveMode "always"', '{ archiveMode: "always", archiveName: "Weekly sync" }');
    if (archiveResolution !== undefined)
      fail('archiveResolution', 'applies only with archiveMode "always"', '{ archiveMode: "always", archiveResolution: "1280x720" }');
  } else if (mediaMode === 'relayed') {
    fail('mediaMode', 'must be "routed" when archiveMode is "always" (archiving needs the media router)', '{ mediaMode: "routed", archiveMode: "always" }');
  }
  const form: Record<string, string> = {};
  if (mediaMode !== undefined) form['p2p.preference'] = mediaMode === 'relayed' ? 'enabled' : 'disabled';
  if (archiveMode !== undefined) form.archiveMode = archiveMode;
  if (archiveName !== undefined) form.archiveName = archiveName;
  if (archiveResolution !== undefined) form.archiveResolution = archiveResolution;
  if (e2ee !== undefined) form.e2ee = String(e2ee);
  if (location !== undefined) form.location = location;
  return form;
}

export class Sessions {
  readonly #ctx: ResourceContext;

  constructor(ctx: ResourceContext) {
    this.#ctx = ctx;
  }

  async create(options: CreateSessionOptions = {}, call?: CallOptions): Promise<Session> {
    const form = sessionCreateForm(options);
    return this.#ctx.http.request({ method: 'POST', path: '/session/create', form, parse: (body) => parseSessionCreateBody(body.text) }, call);
  }
}
