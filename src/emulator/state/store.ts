import type { Account, Project } from './model';

const FIRST_PROJECT_KEY = 47_000_001;

/** All emulator data. `reset()` forgets everything but the account credentials. */
export class EmulatorState {
  readonly projects = new Map<string, Project>();
  private nextKey = FIRST_PROJECT_KEY;

  constructor(readonly account: Account) {}

  /** A fresh numeric-looking API key, never used by an existing project. */
  allocateProjectKey(): string {
    while (this.projects.has(String(this.nextKey))) this.nextKey += 1;
    return String(this.nextKey++);
  }

  reset(): void {
    this.projects.clear();
    this.nextKey = FIRST_PROJECT_KEY;
  }
}

export interface InsightsOptions {
  advancedInsights?: boolean;
  syntheticHistory?: boolean;
}

/**
 * A new project. Advanced Insights is off unless asked for (it is a paid add-on of the real
 * service); synthetic history is on unless turned off.
 */
export function emptyProject(fields: Pick<Project, 'apiKey' | 'secret' | 'name' | 'createdAt'>, insights: InsightsOptions = {}): Project {
  return {
    ...fields,
    status: 'ACTIVE',
    environment: 'standard',
    updatedAt: fields.createdAt,
    sessions: new Map(),
    archives: new Map(),
    broadcasts: new Map(),
    renders: new Map(),
    captions: new Map(),
    sipCalls: new Map(),
    audioConnections: new Map(),
    insights: {
      advancedInsights: insights.advancedInsights ?? false,
      syntheticHistory: insights.syntheticHistory ?? true,
      sessions: new Map(),
    },
  };
}
