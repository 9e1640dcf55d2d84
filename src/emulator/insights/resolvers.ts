import type { FragmentDefinitionNode, GraphQLResolveInfo, SelectionSetNode } from 'graphql';
import type { ClientInfo, Project, RecordedStream } from '../state/model';
import { CODES, InsightsError } from './codes';
import { projectSessions } from './data';
import { maxConcurrent, meetingTotals, type MeetingTotals, type MeetingView, type SessionView, type StreamView, type SubscriberView } from './meetings';
import { attemptStats, minutes, qualityAverages, usage } from './metrics';
import { DEFAULT_STATS_PAGE_SIZE, pageWindow, paginate, type Page, type PageArgs } from './paging';
import { projectDataRows, type MetricRow } from './project-data';
import { sessionById, sessionsCreatedIn } from './session-data';
import { sampleCount, samples, type StatsRole } from './stats';

/**
 * Resolvers as plain objects: graphql-js's default field resolver reads a property, or calls a
 * method with (args, context, info). Nodes wrap the views computed in the other modules.
 */
export interface InsightsContext {
  /** The project the token was issued for. */
  readonly project: Project;
  readonly now: number;
  projectExists(projectId: string): boolean;
  /** Every projectId asked for: more than one refuses the whole query (1004). */
  readonly projectIds: Set<string>;
}

type Args<T> = T & Record<string, unknown>;

/** Keys accepted as a project ID: a non-zero integer (the service's form) or a key of this emulator. */
const PROJECT_ID = /^(?!0+$)[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$/;

/** "project sessionData", "sessionData sessions": how the service names a field in messages. */
function label(info: GraphQLResolveInfo): string {
  const parent = info.parentType.name;
  return `${parent.charAt(0).toLowerCase()}${parent.slice(1)} ${info.fieldName}`;
}

function labelled(info: GraphQLResolveInfo, error: InsightsError): InsightsError {
  return new InsightsError(error.errorCode, `${label(info)}: ${error.message}`);
}

function guarded<T>(info: GraphQLResolveInfo, produce: () => T): T {
  try {
    return produce();
  } catch (error) {
    throw error instanceof InsightsError ? labelled(info, error) : error;
  }
}

/** Whether the field's selection asks for `name` anywhere below it (fragments included). */
function selects(info: GraphQLResolveInfo, name: string): boolean {
  const seen = new Set<string>();
  const visit = (set: SelectionSetNode | undefined): boolean =>
    (set?.selections ?? []).some((sel) => {
      if (sel.kind === 'Field') return sel.name.value === name || visit(sel.selectionSet);
      if (sel.kind === 'InlineFragment') return visit(sel.selectionSet);
      if (seen.has(sel.name.value)) return false;
      seen.add(sel.name.value);
      const fragment: FragmentDefinitionNode | undefined = info.fragments[sel.name.value];
      return visit(fragment?.selectionSet);
    });
  return info.fieldNodes.some((node) => visit(node.selectionSet));
}

const pageOf = <T, N>(page: Page<T>, wrap: (item: T) => N) => ({
  totalCount: page.totalCount,
  pageInfo: page.pageInfo,
  resources: page.items.map(wrap),
});

export class QueryRoot {
  project(args: Args<{ projectId: string }>, ctx: InsightsContext, info: GraphQLResolveInfo): ProjectNode {
    return guarded(info, () => {
      const id = args.projectId.trim();
      if (!PROJECT_ID.test(id)) throw new InsightsError(CODES.invalidProjectId, `Must provide a valid project ID, not '${args.projectId}'`);
      ctx.projectIds.add(id);
      if (id !== ctx.project.apiKey) {
        if (!ctx.projectExists(id)) throw new InsightsError(CODES.projectNotFound, `Project ID ${id} not found`);
        throw new InsightsError(CODES.tokenMismatch, `The token does not match the API key ${id}`);
      }
      return new ProjectNode(ctx.project);
    });
  }
}

interface ProjectDataArgs extends PageArgs {
  start: number;
  end?: number | null;
  interval?: string[] | null;
  sdkType?: string[] | null;
  sdkVersion?: string[] | null;
  country?: string[] | null;
  region?: string[] | null;
  browser?: string[] | null;
  browserVersion?: string[] | null;
  groupBy?: string[] | null;
}

class ProjectNode {
  readonly projectId: string;

  constructor(private readonly project: Project) {
    this.projectId = project.apiKey;
  }

  projectData(args: Args<ProjectDataArgs>, ctx: InsightsContext, info: GraphQLResolveInfo) {
    return guarded(info, () => {
      const rows = projectDataRows(projectSessions(this.project), ctx.now, {
        start: args.start,
        end: args.end,
        interval: args.interval,
        groupBy: args.groupBy,
        filters: {
          sdkType: args.sdkType,
          sdkVersion: args.sdkVersion,
          country: args.country,
          region: args.region,
          browser: args.browser,
          browserVersion: args.browserVersion,
        },
        wantsQuality: selects(info, 'quality'),
        wantsParticipantMinutes: selects(info, 'participantMinutes'),
      });
      return pageOf(paginate(rows, args), metric);
    });
  }

  sessionData(_args: unknown, _ctx: InsightsContext, info: GraphQLResolveInfo): SessionDataNode {
    return guarded(info, () => {
      if (!this.project.insights.advancedInsights) {
        throw new InsightsError(CODES.advancedInsightsRequired, 'This query requires the Advanced Insights add-on');
      }
      return new SessionDataNode(this.project);
    });
  }
}

function metric(row: MetricRow) {
  const f = row.facts;
  return {
    intervalStart: row.intervalStart,
    intervalEnd: row.intervalEnd,
    sdkType: row.group.sdkType ?? null,
    sdkVersion: row.group.sdkVersion ?? null,
    country: row.group.country ?? null,
    region: row.group.region ?? null,
    browser: row.group.browser ?? null,
    browserVersion: row.group.browserVersion ?? null,
    usage: usage(f),
    quality: { publisher: qualityAverages(f.quality.publisher), subscriber: qualityAverages(f.quality.subscriber) },
    errors: {
      connect: attemptStats(f.errors.connect),
      publish: attemptStats(f.errors.publish),
      subscribe: attemptStats(f.errors.subscribe),
    },
  };
}

class SessionDataNode {
  constructor(private readonly project: Project) {}

  sessions(args: Args<{ sessionIds: Array<string | null> }>, ctx: InsightsContext, info: GraphQLResolveInfo) {
    return guarded(info, () => {
      const ids = args.sessionIds.filter((id): id is string => id !== null && id.trim() !== '').map((id) => id.trim());
      if (ids.length === 0) throw new InsightsError(CODES.sessionIdsRequired, 'At least one session ID required');
      // An unknown or expired session is a null item with its own error; the others still answer.
      const resources = ids.map((id) => {
        try {
          return new SessionNode(sessionById(this.project, id, ctx.now));
        } catch (error) {
          if (error instanceof InsightsError) return labelled(info, error);
          throw error;
        }
      });
      return { totalCount: ids.length, resources };
    });
  }

  sessionSummaries(args: Args<PageArgs & { start: number; end?: number | null }>, ctx: InsightsContext, info: GraphQLResolveInfo) {
    return guarded(info, () => {
      const views = sessionsCreatedIn(this.project, ctx.now, args.start, args.end);
      return pageOf(paginate(views, args), (view) => new SessionSummaryNode(view));
    });
  }
}

function totalsOf(meetings: readonly MeetingView[]): MeetingTotals {
  const all = meetings.map(meetingTotals);
  const add = (pick: (t: MeetingTotals) => number): number => all.reduce((s, t) => s + pick(t), 0);
  return {
    publisherMs: add((t) => t.publisherMs),
    subscriberMs: add((t) => t.subscriberMs),
    participantMs: add((t) => t.participantMs),
    participantMsByPublishers: new Map(),
  };
}

/** Minutes fields shared by sessions and meetings, computed once on first use. */
abstract class WithMinutes {
  private cached: MeetingTotals | undefined;

  protected abstract computeTotals(): MeetingTotals;

  private get totals(): MeetingTotals {
    this.cached ??= this.computeTotals();
    return this.cached;
  }

  get publisherMinutes(): number {
    return minutes(this.totals.publisherMs);
  }

  get subscriberMinutes(): number {
    return minutes(this.totals.subscriberMs);
  }

  get participantMinutes(): number {
    return minutes(this.totals.participantMs);
  }
}

class SessionNode extends WithMinutes {
  readonly sessionId: string;

  constructor(private readonly view: SessionView) {
    super();
    this.sessionId = view.sessionId;
  }

  protected computeTotals(): MeetingTotals {
    return totalsOf(this.view.meetings);
  }

  meetings(args: Args<PageArgs>, _ctx: InsightsContext, info: GraphQLResolveInfo) {
    return guarded(info, () => pageOf(paginate(this.view.meetings, args), (m) => new MeetingNode(m)));
  }
}

class MeetingNode extends WithMinutes {
  readonly meetingId: string;
  readonly createdAt: number;
  readonly destroyedAt: number | null;

  constructor(protected readonly meeting: MeetingView) {
    super();
    this.meetingId = meeting.meetingId;
    this.createdAt = meeting.createdAt;
    this.destroyedAt = meeting.destroyedAt;
  }

  protected computeTotals(): MeetingTotals {
    return meetingTotals(this.meeting);
  }

  publishers(args: Args<PageArgs>, _ctx: InsightsContext, info: GraphQLResolveInfo) {
    return guarded(info, () => pageOf(paginate(this.meeting.publishers, args), publisherNode));
  }

  subscribers(args: Args<PageArgs>, _ctx: InsightsContext, info: GraphQLResolveInfo) {
    return guarded(info, () => pageOf(paginate(this.meeting.subscribers, args), subscriberNode));
  }
}

class MeetingSummaryNode extends MeetingNode {
  get maxConcurrentStreams(): number {
    return maxConcurrent(this.meeting.publishers);
  }

  get maxConcurrentSubscribers(): number {
    return maxConcurrent(this.meeting.subscribers);
  }

  get totalStreams(): number {
    return this.meeting.publishers.length;
  }

  get totalConnections(): number {
    return this.meeting.connections.length;
  }
}

class SessionSummaryNode {
  readonly sessionId: string;

  constructor(private readonly view: SessionView) {
    this.sessionId = view.sessionId;
  }

  meetings(args: Args<PageArgs>, _ctx: InsightsContext, info: GraphQLResolveInfo) {
    return guarded(info, () => pageOf(paginate(this.view.meetings, args), (m) => new MeetingSummaryNode(m)));
  }
}

/** A publisher or subscriber: lifetime, client, stream and a lazily sampled statistics collection. */
function participant(
  span: { from: number; to: number; open: boolean },
  connectionId: string,
  client: ClientInfo,
  stream: RecordedStream,
  statsKey: string,
  role: StatsRole,
) {
  return {
    createdAt: span.from,
    destroyedAt: span.open ? null : span.to,
    connectionId,
    ...client,
    stream: { streamId: stream.streamId, videoType: stream.videoType },
    streamStatsCollection: (args: Args<PageArgs>, _ctx: InsightsContext, info: GraphQLResolveInfo) =>
      guarded(info, () => {
        const w = pageWindow(sampleCount(span.from, span.to), args, DEFAULT_STATS_PAGE_SIZE);
        return { totalCount: w.totalCount, pageInfo: w.pageInfo, resources: samples(stream, statsKey, role, span.from, w.offset + 1, w.size) };
      }),
  };
}

const publisherNode = (s: StreamView) => participant(s, s.record.connectionId, s.connection.record.client, s.record, s.record.streamId, 'publisher');

const subscriberNode = (sub: SubscriberView) =>
  participant(sub, sub.connection.record.connectionId, sub.connection.record.client, sub.stream.record, sub.key, 'subscriber');
