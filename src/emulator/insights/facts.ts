import type { ClientInfo, RecordedSession } from '../state/model';
import { overlapByCount, timeline, viewSession, type MeetingView, type StreamView } from './meetings';
import { sampleAt, sampleCount, sampleSeed, SAMPLE_INTERVAL_MS, type StatsRole } from './stats';
import { dayOf, splitByDay, type Day } from './time';

/** Sums of stream statistics samples; averages are taken at the end. */
export interface QualitySums {
  samples: number;
  audioSamples: number;
  videoSamples: number;
  audioBitrateKbps: number;
  videoBitrateKbps: number;
  audioLatencyMs: number;
  videoLatencyMs: number;
  audioPacketLossRatio: number;
  videoPacketLossRatio: number;
}

export interface Attempts {
  attempts: number;
  failures: number;
}

/** What one Pacific day holds for one combination of client dimensions. */
export interface Facts {
  publishedMs: number;
  subscribedMs: number;
  /** Connected time by the number of streams published at the time in the meeting (0 included). */
  participantMs: Map<number, number>;
  quality: Record<StatsRole, QualitySums>;
  errors: { connect: Attempts; publish: Attempts; subscribe: Attempts };
}

const emptyQuality = (): QualitySums => ({
  samples: 0,
  audioSamples: 0,
  videoSamples: 0,
  audioBitrateKbps: 0,
  videoBitrateKbps: 0,
  audioLatencyMs: 0,
  videoLatencyMs: 0,
  audioPacketLossRatio: 0,
  videoPacketLossRatio: 0,
});

export const emptyFacts = (): Facts => ({
  publishedMs: 0,
  subscribedMs: 0,
  participantMs: new Map(),
  quality: { publisher: emptyQuality(), subscriber: emptyQuality() },
  errors: { connect: { attempts: 0, failures: 0 }, publish: { attempts: 0, failures: 0 }, subscribe: { attempts: 0, failures: 0 } },
});

export function addFacts(into: Facts, from: Facts): void {
  into.publishedMs += from.publishedMs;
  into.subscribedMs += from.subscribedMs;
  for (const [count, ms] of from.participantMs) into.participantMs.set(count, (into.participantMs.get(count) ?? 0) + ms);
  for (const role of ['publisher', 'subscriber'] as const) {
    const a = into.quality[role];
    const b = from.quality[role];
    for (const k of Object.keys(a) as Array<keyof QualitySums>) a[k] += b[k];
  }
  for (const kind of ['connect', 'publish', 'subscribe'] as const) {
    into.errors[kind].attempts += from.errors[kind].attempts;
    into.errors[kind].failures += from.errors[kind].failures;
  }
}

/** Whether a day/group holds anything worth a Metric ("only intervals that hold data appear"). */
export function hasData(f: Facts): boolean {
  return f.publishedMs > 0 || f.subscribedMs > 0 || [...f.participantMs.values()].some((ms) => ms > 0) || f.errors.connect.attempts > 0;
}

export interface FactCell {
  day: Day;
  client: ClientInfo;
  facts: Facts;
}

/** Which days count, and whether to compute the (costlier) sample statistics. */
export interface FactScope {
  days: ReadonlySet<string>;
  from: number;
  to: number;
  quality: boolean;
}

/**
 * Daily facts per client: published minutes go to the publisher's client, subscribed minutes to
 * the subscriber's, participant minutes to each connection's, samples to the day they were
 * taken, attempts to the day they were made. Lifetimes crossing midnight are split between days.
 */
export class FactTable {
  private readonly cells = new Map<string, FactCell>();
  private lastDay: Day | undefined;

  constructor(private readonly scope: FactScope) {}

  static build(sessions: Iterable<RecordedSession>, asOf: number, scope: FactScope): FactTable {
    const table = new FactTable(scope);
    for (const session of sessions) {
      if (!touches(session, scope.from, scope.to)) continue;
      for (const meeting of viewSession(session, asOf).meetings) table.addMeeting(meeting);
    }
    return table;
  }

  list(): FactCell[] {
    return [...this.cells.values()];
  }

  private cell(day: Day, client: ClientInfo): Facts | undefined {
    if (!this.scope.days.has(day.key)) return undefined;
    const key = `${day.key}|${JSON.stringify(client)}`;
    let cell = this.cells.get(key);
    if (!cell) {
      cell = { day, client, facts: emptyFacts() };
      this.cells.set(key, cell);
    }
    return cell.facts;
  }

  private addMeeting(m: MeetingView): void {
    for (const s of m.publishers) {
      splitByDay(s.from, s.to, (day, ms) => {
        const f = this.cell(day, s.connection.record.client);
        if (f) f.publishedMs += ms;
      });
    }
    for (const sub of m.subscribers) {
      splitByDay(sub.from, sub.to, (day, ms) => {
        const f = this.cell(day, sub.connection.record.client);
        if (f) f.subscribedMs += ms;
      });
    }
    const publishers = timeline(m.publishers);
    for (const c of m.connections) {
      overlapByCount(c, publishers, (count, from, to) =>
        splitByDay(from, to, (day, ms) => {
          const f = this.cell(day, c.record.client);
          if (f) f.participantMs.set(count, (f.participantMs.get(count) ?? 0) + ms);
        }),
      );
    }
    this.addAttempts(m);
    if (this.scope.quality) {
      for (const s of m.publishers) this.addSamples(s.record.streamId, s, 'publisher', s.connection.record.client, s.from, s.to);
      for (const sub of m.subscribers) this.addSamples(sub.key, sub.stream, 'subscriber', sub.connection.record.client, sub.from, sub.to);
    }
  }

  /** Each connection, publish and subscription is one successful attempt; recorded failures add to them. */
  private addAttempts(m: MeetingView): void {
    for (const c of m.connections) {
      const f = this.cell(this.dayFor(c.from), c.record.client);
      if (!f) continue;
      const { failures } = c.record;
      f.errors.connect.attempts += 1 + failures.connect;
      f.errors.connect.failures += failures.connect;
      f.errors.publish.attempts += failures.publish;
      f.errors.publish.failures += failures.publish;
      f.errors.subscribe.attempts += failures.subscribe;
      f.errors.subscribe.failures += failures.subscribe;
    }
    for (const s of m.publishers) {
      const f = this.cell(this.dayFor(s.from), s.connection.record.client);
      if (f) f.errors.publish.attempts += 1;
    }
    for (const sub of m.subscribers) {
      const f = this.cell(this.dayFor(sub.from), sub.connection.record.client);
      if (f) f.errors.subscribe.attempts += 1;
    }
  }

  /** dayOf() builds a zoned date; consecutive samples nearly always fall on the same day. */
  private dayFor(ms: number): Day {
    if (!this.lastDay || ms < this.lastDay.start || ms >= this.lastDay.end) this.lastDay = dayOf(ms);
    return this.lastDay;
  }

  private addSamples(key: string, stream: StreamView, role: StatsRole, client: ClientInfo, from: number, to: number): void {
    // Only the samples inside the scope: index k is taken at from + k * 30 s.
    const first = Math.max(1, Math.ceil((this.scope.from - from) / SAMPLE_INTERVAL_MS));
    const last = Math.min(sampleCount(from, to), Math.floor((this.scope.to - 1 - from) / SAMPLE_INTERVAL_MS));
    const seed = sampleSeed(key, role);
    for (let k = first; k <= last; k += 1) {
      const sample = sampleAt(stream.record, seed, role, from, k);
      const f = this.cell(this.dayFor(sample.createdAt), client);
      if (!f) continue;
      const q = f.quality[role];
      q.samples += 1;
      if (sample.audioBitrateKbps !== null) {
        q.audioSamples += 1;
        q.audioBitrateKbps += sample.audioBitrateKbps;
        q.audioLatencyMs += sample.audioLatencyMs ?? 0;
        q.audioPacketLossRatio += sample.audioPacketLossRatio ?? 0;
      }
      if (sample.videoBitrateKbps !== null) {
        q.videoSamples += 1;
        q.videoBitrateKbps += sample.videoBitrateKbps;
        q.videoLatencyMs += sample.videoLatencyMs ?? 0;
        q.videoPacketLossRatio += sample.videoPacketLossRatio ?? 0;
      }
    }
  }
}

function touches(session: RecordedSession, from: number, to: number): boolean {
  return session.connections.some((c) => c.createdAt < to && (c.destroyedAt === undefined || c.destroyedAt > from));
}
