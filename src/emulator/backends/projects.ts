import { badRequest, conflict, notFound } from '../errors';
import { randomSecret } from '../ids';
import type { Project, ProjectStatus } from '../state/model';
import { emptyProject } from '../state/store';
import type { BackendContext } from './context';

export interface CreateProjectOptions {
  apiKey?: string;
  apiSecret?: string;
  name?: string;
}

/** Project administration (account credentials) and project lookup for every other backend. */
export class ProjectsBackend {
  constructor(private readonly ctx: BackendContext) {}

  create(opts: CreateProjectOptions = {}): Project {
    const { state, clock } = this.ctx;
    const apiKey = opts.apiKey ?? state.allocateProjectKey();
    if (apiKey === '' || apiKey.includes('/')) throw badRequest('Invalid API key');
    if (state.projects.has(apiKey)) throw conflict(`Project ${apiKey} already exists`);
    const project = emptyProject({
      apiKey,
      secret: opts.apiSecret ?? randomSecret(),
      name: opts.name ?? '',
      createdAt: clock.now(),
    });
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

  refreshSecret(apiKey: string): Project {
    const project = this.get(apiKey);
    project.secret = randomSecret();
    project.updatedAt = this.ctx.clock.now();
    return project;
  }
}
