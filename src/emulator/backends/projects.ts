import { badRequest, conflict, notFound } from '../errors';
import { randomSecret } from '../ids';
import type { Project, ProjectStatus } from '../state/model';
import { emptyProject, type InsightsOptions } from '../state/store';
import type { BackendContext } from './context';

export interface CreateProjectOptions {
  apiKey?: string;
  apiSecret?: string;
  name?: string;
  /** Advanced Insights add-on (default false). */
  advancedInsights?: boolean;
  /** Synthetic Insights history for the 90 days before creation (default true). */
  syntheticHistory?: boolean;
}

/** Project administration (account credentials) and project lookup for every other backend. */
export class ProjectsBackend {
  constructor(private readonly ctx: BackendContext) {}

  create(opts: CreateProjectOptions = {}): Project {
    const { state, clock } = this.ctx;
    const apiKey = opts.apiKey ?? state.allocateProjectKey();
    if (apiKey === '' || apiKey.includes('/')) throw badRequest('Invalid API key');
    if (state.projects.has(apiKey)) throw conflict(`Project ${apiKey} already exists`);
    const project = emptyProject(
      {
        apiKey,
        secret: opts.apiSecret ?? randomSecret(),
        name: opts.name ?? '',
        createdAt: clock.now(),
      },
      insightsOptions(opts),
    );
    state.projects.set(apiKey, project);
    return project;
  }

  list(): Project[] {
    return [...this.ctx.state.projects.values()];
  }

  /** The project, or 404. */
  get(apiKey: string): Project {
    const project = this.ctx.state.projects.get(apiKey);
    if (!project) throw notFound(`Project ${apiKey} not found`);
    return project;
  }

  setStatus(apiKey: string, status: ProjectStatus): Project {
    const project = this.get(apiKey);
    project.status = status;
    project.updatedAt = this.ctx.clock.now();
    return project;
  }

  delete(apiKey: string): void {
    this.get(apiKey);
    this.ctx.state.projects.delete(apiKey);
    this.ctx.scheduler.cancelPrefix(`${apiKey}/`);
  }

  /** Turns the Advanced Insights add-on on or off. */
  setAdvancedInsights(apiKey: string, enabled: boolean): void {
    this.get(apiKey).insights.advancedInsights = enabled;
  }

  /** Turns the synthetic Insights history on or off (off: only this emulator's own sessions count). */
  setSyntheticHistory(apiKey: string, enabled: boolean): void {
    this.get(apiKey).insights.syntheticHistory = enabled;
  }

  refreshSecret(apiKey: string): Project {
    const project = this.get(apiKey);
    project.secret = randomSecret();
    project.updatedAt = this.ctx.clock.now();
    return project;
  }
}

function insightsOptions(opts: CreateProjectOptions): InsightsOptions {
  const result: InsightsOptions = {};
  if (opts.advancedInsights !== undefined) result.advancedInsights = opts.advancedInsights;
  if (opts.syntheticHistory !== undefined) result.syntheticHistory = opts.syntheticHistory;
  return result;
}
