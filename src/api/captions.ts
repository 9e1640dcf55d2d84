import { z } from 'zod';
import type { ResourceContext } from './context';
import { type CallOptions, json, projectPath } from './http';
import { callerToken } from './participant';
import { optionalEpochMs, projectIdOf, text, wireId, wireTime } from './schemas';
import { compact, optionalBoolean, optionalIntInRange, optionalOneOf, requireId, requireObject } from './validate';

export const CAPTION_LANGUAGES = [
  'en-US',
  'en-AU',
  'en-GB',
  'es-US',
  'zh-CN',
  'fr-FR',
  'fr-CA',
  'de-DE',
  'hi-IN',
  'it-IT',
  'ja-JP',
  'ko-KR',
  'pt-BR',
  'th-TH',
] as const;
export type CaptionLanguage = (typeof CAPTION_LANGUAGES)[number];

export interface StartCaptionsOptions {
  sessionId: string;
  /** Moderator token; minted when omitted. */
  token?: string;
  /** Default en-US. */
  languageCode?: CaptionLanguage;
  /** 300–14,400 seconds (default 14,400). */
  maxDuration?: number;
  /** Default true: faster, slightly less accurate captions. */
  partialCaptions?: boolean;
}

export const captionsStartedSchema = z.looseObject({ captionsId: z.string() });
export type CaptionsStarted = z.output<typeof captionsStartedSchema>;

function adoptCaptionId(input: unknown): unknown {
  if (typeof input !== 'object' || input === null) return input;
  const record = input as Record<string, unknown>;
  return record.captionsId === undefined && record.captionId !== undefined ? { ...record, captionsId: record.captionId } : input;
}

/** A captions status object as SDKs model it (`captionId` or `captionsId`, timestamps in seconds). */
export const captionsStatusSchema = z.preprocess(
  adoptCaptionId,
  z
    .looseObject({
      captionsId: z.string(),
      projectId: wireId.nullish(),
      partnerId: wireId.nullish(),
      sessionId: z.string().optional(),
      status: z.string().optional(),
      createdAt: wireTime.optional(),
      updatedAt: wireTime.optional(),
      duration: z.number().optional(),
      languageCode: z.string().optional(),
      reason: z.string().nullish(),
      provider: z.string().optional(),
    })
    .transform((raw) => ({
      ...raw,
      projectId: projectIdOf(raw),
      createdAt: optionalEpochMs(raw.createdAt),
      updatedAt: optionalEpochMs(raw.updatedAt),
      reason: text(raw.reason),
    })),
);
export type CaptionsStatus = z.output<typeof captionsStatusSchema>;

export function startCaptionsBody(options: StartCaptionsOptions): Omit<StartCaptionsOptions, 'token'> {
  const opts = requireObject('options', options, '{ sessionId: "2_MX4xMjM0NTZ-fg", languageCode: "en-US" }');
  return compact({
    sessionId: requireId('sessionId', opts.sessionId),
    languageCode: optionalOneOf('languageCode', opts.languageCode, CAPTION_LANGUAGES),
    maxDuration: optionalIntInRange('maxDuration', opts.maxDuration, 300, 14_400, 3600),
    partialCaptions: optionalBoolean('partialCaptions', opts.partialCaptions),
  }) as Omit<StartCaptionsOptions, 'token'>;
}

export class Captions {
  readonly #ctx: ResourceContext;

  constructor(ctx: ResourceContext) {
    this.#ctx = ctx;
  }

  /** Starts live captions (one per session). Accepts the service's 200 or 202. */
  async start(options: StartCaptionsOptions, call?: CallOptions): Promise<CaptionsStarted> {
    const body = startCaptionsBody(options);
    const token = callerToken(options.token, 'moderator', body.sessionId) ?? (await this.#ctx.tokens.client({ sessionId: body.sessionId, role: 'moderator' }));
    return this.#ctx.http.request(
      {
        method: 'POST',
        path: projectPath(this.#ctx.apiKey(), 'captions'),
        json: { ...body, token },
        secrets: [token],
        parse: json(captionsStartedSchema),
      },
      call,
    );
  }

  async stop(captionsId: string, call?: CallOptions): Promise<void> {
    const id = requireId('captionsId', captionsId, '"7c0680fc-6274-4de5-a66f-d0648e8d3ac2"');
    return this.#ctx.http.request({ method: 'POST', path: projectPath(this.#ctx.apiKey(), 'captions', id, 'stop') }, call);
  }
}
