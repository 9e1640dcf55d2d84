/**
 * One request as every listener sees it (slash command, button, modal, shortcut): who, where,
 * how to answer, and the services.
 */
import type { Services } from '../services';
import type { ProjectGate } from './authorize';
import type { Audience } from '../slack/respond';

/** Any listener's view of one request: who, where, how to answer, and the services. */
export interface Interaction extends Audience {
  services: Services;
  teamId: string;
  triggerId?: string;
  /** A command's role check for each project it resolves or changes (see authorize.ts). */
  gate?: ProjectGate;
}
