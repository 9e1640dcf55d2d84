import type { Browser, ClientInfo, RecordedConnection, RecordedSession, RecordedStream, SdkType } from '../state/model';
import { between, hash32, mulberry32, stableUuid, weighted } from './random';
import { addDays, dayOf, HOUR_MS, MINUTE_MS, weekday, type Day } from './time';

/** Days of made-up history before the project's creation day (the daily-aggregate retention). */
export const SYNTHETIC_DAYS = 90;

interface Profile {
  sdkType: SdkType;
  browser: Browser | null;
  sdkVersions: readonly string[];
  browserVersions: readonly (string | null)[];
}

const PROFILES: ReadonlyArray<readonly [Profile, number]> = [
  [{ sdkType: 'JS', browser: 'CHROME', sdkVersions: ['2.27.2', '2.28.0'], browserVersions: ['129.0', '130.0'] }, 40],
  [{ sdkType: 'JS', browser: 'FIREFOX', sdkVersions: ['2.27.2', '2.28.0'], browserVersions: ['131.0'] }, 10],
  [{ sdkType: 'JS', browser: 'SAFARI', sdkVersions: ['2.28.0'], browserVersions: ['18.1'] }, 8],
  [{ sdkType: 'JS', browser: 'EDGE', sdkVersions: ['2.28.0'], browserVersions: ['130.0'] }, 5],
  [{ sdkType: 'JS', browser: 'IE', sdkVersions: ['2.16.5'], browserVersions: ['11.0'] }, 2],
  [{ sdkType: 'ANDROID', browser: null, sdkVersions: ['2.27.1', '2.28.0'], browserVersions: [null] }, 18],
  [{ sdkType: 'IOS', browser: null, sdkVersions: ['2.27.3', '2.28.0'], browserVersions: [null] }, 17],
];

const PLACES: ReadonlyArray<readonly [{ country: string; regions: readonly string[] }, number]> = [
  [{ country: 'US', regions: ['US-CA', 'US-NY', 'US-TX'] }, 40],
  [{ country: 'BR', regions: ['BR-SP', 'BR-RJ'] }, 12],
  [{ country: 'MX', regions: ['MX-CMX'] }, 10],
  [{ country: 'FR', regions: ['FR-IDF'] }, 10],
  [{ country: 'ES', regions: ['ES-MD', 'ES-CT'] }, 10],
  [{ country: 'AR', regions: ['AR-C'] }, 8],
  [{ country: 'GB', regions: ['GB-ENG'] }, 10],
];

const pick = <T>(items: readonly T[], r: number): T => items[Math.min(items.length - 1, Math.floor(r * items.length))] as T;

function client(rnd: () => number): ClientInfo {
  const profile = weighted(PROFILES, rnd());
  const place = weighted(PLACES, rnd());
  return {
    sdkType: profile.sdkType,
    sdkVersion: pick(profile.sdkVersions, rnd()),
    country: place.country,
    region: pick(place.regions, rnd()),
    browser: profile.browser,
    browserVersion: pick(profile.browserVersions, rnd()),
  };
}

/** Session IDs shaped like the service's (`2_MX...`, base64url of `1~key~...`), fixed by key, day and index. */
export function syntheticSessionId(apiKey: string, day: Day, index: number): string {
  return `2_${Buffer.from(`1~${apiKey}~198.51.100.7~synthetic ${day.key}~${index}~`, 'utf8').toString('base64url')}`;
}

/**
 * The made-up history of a project: for each of the 90 Pacific days before `createdAt`'s day,
 * 2-4 sessions on weekdays and 0-1 at weekends, each with 1-2 meetings of 2-6 participants
 * (JS in several browsers, Android, iOS; a handful of countries), mostly camera publishers, some
 * screen shares, a few failed attempts. Seeded by API key and day: the same on every run, and
 * history before a given day does not depend on when the project was created.
 */
export function syntheticHistory(apiKey: string, createdAt: number): RecordedSession[] {
  const firstDay = dayOf(createdAt);
  const sessions: RecordedSession[] = [];
  for (let back = SYNTHETIC_DAYS; back >= 1; back -= 1) {
    const day = addDays(firstDay, -back);
    const rnd = mulberry32(hash32(`${apiKey}|${day.key}`));
    const weekend = weekday(day) === 0 || weekday(day) === 6;
    const count = weekend ? (rnd() < 0.4 ? 1 : 0) : between(rnd(), 2, 4);
    for (let i = 0; i < count; i += 1) sessions.push(syntheticSession(syntheticSessionId(apiKey, day, i), day, rnd));
  }
  return sessions;
}

function syntheticSession(sessionId: string, day: Day, rnd: () => number): RecordedSession {
  const connections: RecordedConnection[] = [];
  const streams: RecordedStream[] = [];
  const meetings = rnd() < 0.2 ? 2 : 1;
  // Whole seconds keep the minutes readable; 07:00-19:00 keeps every session inside its day.
  let meetingStart = day.start + 7 * HOUR_MS + between(rnd(), 0, 12 * 3600) * 1000;
  for (let m = 0; m < meetings; m += 1) {
    const participants = between(rnd(), 2, 6);
    let meetingEnd = meetingStart;
    for (let p = 0; p < participants; p += 1) {
      const connectionId = stableUuid(`${sessionId}|connection|${m}|${p}`);
      const createdAt = meetingStart + between(rnd(), 0, 300) * 1000;
      const destroyedAt = createdAt + between(rnd(), 10, 60) * MINUTE_MS;
      meetingEnd = Math.max(meetingEnd, destroyedAt);
      connections.push({
        connectionId,
        kind: 'client',
        client: client(rnd),
        createdAt,
        destroyedAt,
        failures: { connect: rnd() < 0.05 ? 1 : 0, publish: rnd() < 0.04 ? 1 : 0, subscribe: rnd() < 0.03 ? 1 : 0 },
      });
      if (rnd() < 0.85) {
        streams.push({
          streamId: stableUuid(`${sessionId}|camera|${m}|${p}`),
          connectionId,
          videoType: 'camera',
          hasAudio: true,
          hasVideo: rnd() < 0.9,
          createdAt: createdAt + between(rnd(), 5, 30) * 1000,
          destroyedAt,
        });
      }
      if (rnd() < 0.1) {
        const shareStart = createdAt + between(rnd(), 2, 8) * MINUTE_MS;
        streams.push({
          streamId: stableUuid(`${sessionId}|screen|${m}|${p}`),
          connectionId,
          videoType: 'screen',
          hasAudio: false,
          hasVideo: true,
          createdAt: shareStart,
          destroyedAt: Math.min(destroyedAt, shareStart + between(rnd(), 5, 15) * MINUTE_MS),
        });
      }
    }
    // More than the 10-minute meeting boundary: the next participants start a new meeting.
    meetingStart = meetingEnd + between(rnd(), 20, 90) * MINUTE_MS;
  }
  return { sessionId, connections, streams };
}
