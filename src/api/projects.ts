import { z } from 'zod';
import type { ResourceContext } from './context';
import { type CallOptions, json, projectPath } from './http';
import { type Known, optionalEpochMs, text, wireId, wireTime } from './schemas';
import { oneOf, optionalString, requireId } from './validate';

export const PROJECT_STATUSES = ['ACTIVE', 'SUSPENDED'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

/**
 * Project details. The spec leaves the fields open beyond the API key and, after a refresh,
 * the secret; the key is read from `apiKey`, `id`, `projectId` or `partnerId`. `secret` is
 * non-enumerable so logging or serialising the object does not leak it.
 */
export const projectDetailsSchema = z
  .looseObject({
    apiKey: wireId.optional(),
    id: wireId.optional(),
    projectId: wireId.optional(),
    partnerId: wireId.optional(),
    secret: z.string().optional(),
    name: z.string().nullish(),
    status: z.string().optional(),
    environment: z.string().optional(),
    createdAt: wireTime.optional(),
    updatedAt: wireTime.optional(),
  })
  .transform((project, ctx) => {
    const key = project.apiKey ?? project.id ?? project.projectId ?? project.partnerId;
    if (key === undefined) {
      ctx.issues.push({ code: 'custom', message: 'project details without an API key (apiKey or id)', input: project });
      return z.NEVER;
    }
    const { secret, ...visible } = project;
    const details = {
      ...visible,
      apiKey: String(key),
      name: text(project.name),
      status: project.status as Known<ProjectStatus> | undefined,
      createdAt: optionalEpochMs(project.createdAt),
      updatedAt: optionalEpochMs(project.updatedAt),
    } as Omit<typeof visible, 'apiKey' | 'name' | 'status' | 'createdAt' | 'updatedAt'> & {
      apiKey: string;
      name?: string;
      status?: Known<ProjectStatus>;
      createdAt?: number;
      updatedAt?: number;
      secret?: string;
    };
    if (secret !== undefined) Object.defineProperty(details, 'secret', { value: secret, enumerable: false });
    return details;
  });
export type ProjectDetails = z.output<typeof projectDetailsSchema>;

const projectListSchema = z
  .union([z.array(projectDetailsSchema), z.looseObject({ items: z.array(projectDetailsSchema) })])
  .transform((list) => (Array.isArray(list) ? list : list.items));

const PROJECT_KEY_EXAMPLE = '"46123456"';

/** Project administration; signed with the account credentials (`ist` = account). */
export class Projects {
  readonly #ctx: ResourceContext;

  constructor(ctx: ResourceContext) {
    this.#ctx = ctx;
  }

  /** Creates a project; it can take up to 60 s before it is usable. */
  async create(name?: string, call?: CallOptions): Promise<ProjectDetails> {
    const projectName = optionalString('name', name, '"Support calls"');
    return this.#ctx.http.request(
      {
        method: 'POST',
        path: '/v2/project',
        issuer: 'account',
        ...(projectName !== undefined && { json: { name: projectName } }),
        parse: json(projectDetailsSchema),
      },
      call,
    );
  }

  async list(call?: CallOptions): Promise<ProjectDetails[]> {
    return this.#ctx.http.request({ method: 'GET', path: '/v2/project', issuer: 'account', parse: json(projectListSchema) }, call);
  }

  async get(apiKey: string, call?: CallOptions): Promise<ProjectDetails> {
    return this.#ctx.http.request({ method: 'GET', path: projectPath(this.#key(apiKey)), issuer: 'account', parse: json(projectDetailsSchema) }, call);
  }

  /** Suspends or re-activates a project. A suspended project's key and sessions cannot be used. */
  async setStatus(apiKey: string, status: ProjectStatus, call?: CallOptions): Promise<ProjectDetails> {
    const body = { status: oneOf('status', status, PROJECT_STATUSES) };
    return this.#ctx.http.request(
      { method: 'PUT', path: projectPath(this.#key(apiKey)), issuer: 'account', json: body, parse: json(projectDetailsSchema) },
      call,
    );
  }

  async delete(apiKey: string, call?: CallOptions): Promise<void> {
    return this.#ctx.http.request({ method: 'DELETE', path: projectPath(this.#key(apiKey)), issuer: 'account' }, call);
  }

  /**
   * Issues a new project secret (read it from `details.secret`). Existing participant tokens
   * become invalid; call `client.setCredentials(key, secret)` if this client uses that project.
   */
  async refreshSecret(apiKey: string, call?: CallOptions): Promise<ProjectDetails> {
    return this.#ctx.http.request(
      { method: 'POST', path: projectPath(this.#key(apiKey), 'refreshSecret'), issuer: 'account', parse: json(projectDetailsSchema) },
      call,
    );
  }

  #key(apiKey: string): string {
    return requireId('apiKey', apiKey, PROJECT_KEY_EXAMPLE);
  }
}
