/**
 * New project secrets at rest. Every secret the video service hands vidops (`/video-admin
 * create` and `rotate-secret`) is sealed with the SecretBox (AES-256-GCM, key from
 * VIDOPS_SECRET_KEY, the project API key as authenticated context) and stored as
 * `project:<apiKey>`; never shown in Slack, never logged. When vidops itself uses the project,
 * the new secret is applied to its live clients at once, and on later starts it is loaded over
 * the configured secret — as long as it is newer than the configuration (see README.md).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { type SecretBox, SecretBoxError } from '../crypto';
import type { Logger } from '../log';
import type { ProjectRegistry } from '../projects';
import type { StoredSecret, VidopsStore } from '../store/types';

/** The store name of a project's secret. */
export function projectSecretName(apiKey: string): string {
  return `project:${apiKey}`;
}

/** The API key a store name refers to, or undefined for names of other kinds. */
export function apiKeyOfSecretName(name: string): string | undefined {
  return name.startsWith('project:') && name.length > 'project:'.length ? name.slice('project:'.length) : undefined;
}

/**
 * A one-way tag of a configured secret, kept inside the sealed record: it tells whether the
 * configuration still holds the secret a stored one replaced, without keeping that secret.
 */
export function secretFingerprint(apiKey: string, secret: string): string {
  return createHash('sha256').update(`vidops project secret\n${apiKey}\n${secret}`).digest('base64url').slice(0, 22);
}

/** What is sealed: the secret, and the fingerprints of the configured secrets it supersedes. */
const sealedRecordSchema = z.object({
  v: z.literal(1),
  secret: z.string().min(1),
  replaces: z.array(z.string()).default([]),
});
export type ProjectSecretRecord = z.output<typeof sealedRecordSchema>;

/** Seals a record for `project:<apiKey>`; the API key is the authenticated context. */
export function sealProjectSecret(box: SecretBox, apiKey: string, record: { secret: string; replaces: readonly string[] }): string {
  return box.seal(JSON.stringify({ v: 1, secret: record.secret, replaces: [...record.replaces] }), apiKey);
}

/** Opens a stored record; throws SecretBoxError (never carrying the text) when it cannot. */
export function openProjectSecret(box: SecretBox, apiKey: string, ciphertext: string): ProjectSecretRecord {
  const plain = box.open(ciphertext, apiKey);
  let parsed: unknown;
  try {
    parsed = JSON.parse(plain);
  } catch {
    throw new SecretBoxError('stored secret is not a vidops project secret record');
  }
  const record = sealedRecordSchema.safeParse(parsed);
  if (!record.success) throw new SecretBoxError('stored secret is not a vidops project secret record');
  return record.data;
}

export interface SecretDeps {
  store: VidopsStore;
  projects: ProjectRegistry;
  secretBox?: SecretBox;
  clock: () => number;
}

export type SaveResult =
  /** `applied`: the configured projects (names) now signing with the new secret. */
  { stored: true; name: string; applied: string[] } | { stored: false; name: string; applied: string[]; error: unknown };

/**
 * Keeps a secret the video service just issued for `apiKey`: first applied to every configured
 * project using that key (so vidops keeps working even if storing fails), then sealed and
 * stored. Storage failures are returned, not thrown: the secret exists only here, and the
 * caller must say so.
 */
export async function saveProjectSecret(deps: SecretDeps, apiKey: string, secret: string): Promise<SaveResult> {
  const name = projectSecretName(apiKey);
  const applied = deps.projects.namesForApiKey(apiKey);
  for (const project of applied) deps.projects.applySecret(project, secret);
  const box = deps.secretBox;
  if (!box) return { stored: false, name, applied, error: new SecretBoxError('VIDOPS_SECRET_KEY is not set') };
  const replaces = [
    ...new Set(applied.map((project) => deps.projects.configured(project)!.apiSecret).map((configured) => secretFingerprint(apiKey, configured))),
  ];
  try {
    await deps.store.putSecret({ name, ciphertext: sealProjectSecret(box, apiKey, { secret, replaces }), updatedAt: deps.clock() });
    return { stored: true, name, applied };
  } catch (error) {
    return { stored: false, name, applied, error };
  }
}

export type SecretDecision =
  /** The stored secret is newer than the configuration; the project now signs with it. */
  | { project: string; outcome: 'loaded'; storedAt: number }
  /** Already signing with the stored secret (or the configuration holds it too). */
  | { project: string; outcome: 'current'; storedAt: number }
  /** The configuration changed after the secret was stored: the configured secret wins. */
  | { project: string; outcome: 'configuration-newer'; storedAt: number }
  /** A secret is stored but cannot be used (no key, another key, altered). */
  | { project: string; outcome: 'unreadable'; storedAt: number; reason: string };

export interface LoadOptions {
  logger: Logger;
  /**
   * The `updatedAt` of each project's stored secret already considered (keyed by project
   * name). Periodic reloads pass the same map, so each stored version is decided and logged
   * once.
   */
  seen?: Map<string, number>;
}

/**
 * Puts stored secrets in use for the configured projects. A stored secret wins when it is
 * newer than the configuration: it was written while the configuration held the secret it
 * replaced (its fingerprint is sealed in the record). When the configured secret is another
 * one, an operator changed the configuration since, and the configured secret is kept.
 */
export async function loadStoredSecrets(deps: SecretDeps, options: LoadOptions): Promise<SecretDecision[]> {
  const { logger, seen } = options;
  const decisions: SecretDecision[] = [];
  const byKey = new Map<string, StoredSecret | undefined>();
  for (const project of deps.projects.names()) {
    const configured = deps.projects.configured(project)!;
    const apiKey = configured.apiKey;
    if (!byKey.has(apiKey)) byKey.set(apiKey, await deps.store.getSecret(projectSecretName(apiKey)));
    const stored = byKey.get(apiKey);
    if (!stored || seen?.get(project) === stored.updatedAt) continue;
    seen?.set(project, stored.updatedAt);
    const storedAt = stored.updatedAt;
    const fields = { project, apiKey, storedAt: new Date(storedAt).toISOString() };

    if (!deps.secretBox) {
      const reason = 'VIDOPS_SECRET_KEY is not set';
      logger.warn('a rotated secret is stored for this project, but VIDOPS_SECRET_KEY is not set; using the configured secret', fields);
      decisions.push({ project, outcome: 'unreadable', storedAt, reason });
      continue;
    }
    let record: ProjectSecretRecord;
    try {
      record = openProjectSecret(deps.secretBox, apiKey, stored.ciphertext);
    } catch (error) {
      const reason = error instanceof SecretBoxError ? error.message : 'it could not be opened';
      logger.warn('the stored secret of this project cannot be used; using the configured secret', { ...fields, reason });
      decisions.push({ project, outcome: 'unreadable', storedAt, reason });
      continue;
    }

    if (record.secret === deps.projects.secretInUse(project)) {
      decisions.push({ project, outcome: 'current', storedAt });
    } else if (record.secret === configured.apiSecret) {
      deps.projects.applySecret(project, record.secret);
      decisions.push({ project, outcome: 'current', storedAt });
    } else if (record.replaces.includes(secretFingerprint(apiKey, configured.apiSecret))) {
      deps.projects.applySecret(project, record.secret);
      logger.info('using the stored secret of this project: it was rotated after the configuration was written', fields);
      decisions.push({ project, outcome: 'loaded', storedAt });
    } else {
      logger.warn('the configured secret of this project changed after vidops stored a rotated one; using the configured secret', fields);
      decisions.push({ project, outcome: 'configuration-newer', storedAt });
    }
  }
  return decisions;
}

export interface SecretReloader {
  stop(): void;
}

/**
 * Reloads stored secrets every `intervalMs` (default 60 s), so a rotation made through one
 * replica reaches the others without a restart. Errors are logged; the next tick tries again.
 */
export function startSecretReloader(deps: SecretDeps, options: LoadOptions & { intervalMs?: number }): SecretReloader {
  const seen = options.seen ?? new Map<string, number>();
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    loadStoredSecrets(deps, { logger: options.logger, seen })
      .catch((error: unknown) => options.logger.warn('reloading stored project secrets failed', { error: (error as Error).message }))
      .finally(() => {
        running = false;
      });
  }, options.intervalMs ?? 60_000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
