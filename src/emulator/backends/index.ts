import { ArchivesBackend } from './archives';
import { AudioConnectorBackend } from './audio-connector';
import { BroadcastsBackend } from './broadcasts';
import { CaptionsBackend } from './captions';
import type { BackendContext } from './context';
import { ProjectsBackend } from './projects';
import { RendersBackend } from './renders';
import { SessionsBackend } from './sessions';
import { SipBackend } from './sip';
import { InsightsBackend } from '../insights/backend';
import { recordSessionActivity } from '../insights/recorder';

export interface Backends {
  projects: ProjectsBackend;
  sessions: SessionsBackend;
  archives: ArchivesBackend;
  broadcasts: BroadcastsBackend;
  sip: SipBackend;
  captions: CaptionsBackend;
  renders: RendersBackend;
  audio: AudioConnectorBackend;
  insights: InsightsBackend;
}

export function createBackends(ctx: BackendContext): Backends {
  const projects = new ProjectsBackend(ctx);
  const sessions = new SessionsBackend(ctx, projects);
  recordSessionActivity(ctx.state, ctx.events, ctx.clock);
  return {
    projects,
    sessions,
    archives: new ArchivesBackend(ctx, sessions),
    broadcasts: new BroadcastsBackend(ctx, sessions),
    sip: new SipBackend(ctx, sessions),
    captions: new CaptionsBackend(ctx, sessions),
    renders: new RendersBackend(ctx, sessions),
    audio: new AudioConnectorBackend(ctx, sessions),
    insights: new InsightsBackend(ctx, projects),
  };
}
