/**
 * A week with known minutes, driven through the emulator's control API on the app's (emulator)
 * clock: Monday 2 – Sunday 8 November 2026 (PST). Each day k (0…6), from 10:00 Pacific, three
 * clients connect — A (Android, Brazil), B (iOS, US), C (JavaScript in Firefox, France); A
 * publishes at once, B 5 minutes later, C k minutes after B; everyone leaves at 10:20.
 *
 * Per day: published 20 + 15 + (15 − k); each stream is received by the two others, so
 * subscribed = 2 × published; participant minutes = 3 connections × 20 = 60, of which
 * 15 + 3k with 1–2 publishers and 45 − 3k with 3–6. Each SDK (and country) streams 50 − k.
 */
import type { TestApp } from '../harness/app';
import type { RecordedCall, RecordedUpload } from '../harness/fake-slack';

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export const MINUTE = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;

/** Monday 2 November 2026, 00:00 PST. */
export const WEEK_START = Date.parse('2026-11-02T08:00:00Z');
/** Sunday 8 November's aggregates are published 36 h after it ends: Tuesday 10 November, 12:00 PST. */
export const WEEK_FINAL = WEEK_START + 7 * DAY + 36 * HOUR;

export const KNOWN_WEEK = {
  firstDay: '2026-11-02',
  lastDay: '2026-11-08',
  published: 7 * 50 - 21,
  subscribed: 2 * (7 * 50 - 21),
  participant: 7 * 60,
  tiers: { '1–2 publishers': 7 * 15 + 3 * 21, '3–6 publishers': 7 * 45 - 3 * 21 },
  /** Published + subscribed minutes of each SDK type (and each country). */
  perSdk: 7 * 50 - 21,
  /** Participant minutes of each country: 20 per connection per day. */
  perCountry: 7 * 20,
  publishedOn: (k: number) => 50 - k,
} as const;

export const CLIENTS = {
  A: { sdkType: 'ANDROID', sdkVersion: '2.28.0', country: 'BR', region: 'BR-SP', browser: null, browserVersion: null },
  B: { sdkType: 'IOS', sdkVersion: '2.27.3', country: 'US', region: 'US-NY', browser: null, browserVersion: null },
  C: { sdkType: 'JS', sdkVersion: '2.28.0', country: 'FR', region: 'FR-IDF', browser: 'FIREFOX', browserVersion: '131.0' },
} as const;

export interface SeededDay {
  sessionId: string;
  connections: { A: string; B: string; C: string };
  streams: { A: string; B: string; C: string };
}

/** Moves the emulator clock forward to `at`. */
export function advanceTo(t: TestApp, at: number): void {
  const now = t.emulator.control.now();
  if (at < now) throw new Error(`advanceTo(${new Date(at).toISOString()}) is in the past (${new Date(now).toISOString()})`);
  t.emulator.control.advanceTime(at - now);
}

/** Seeds the known week into `apiKey`'s project (synthetic history off) and stops at Sunday's end. */
export function seedKnownWeek(t: TestApp, apiKey: string = t.project.apiKey): SeededDay[] {
  const c = t.emulator.control;
  c.setSyntheticHistory(apiKey, false);
  const days: SeededDay[] = [];
  for (let k = 0; k < 7; k += 1) {
    const tenAm = WEEK_START + k * DAY + 10 * HOUR;
    advanceTo(t, tenAm);
    const sessionId = c.createSession(apiKey);
    const A = c.connect(apiKey, sessionId, { client: CLIENTS.A });
    const B = c.connect(apiKey, sessionId, { client: CLIENTS.B });
    const C = c.connect(apiKey, sessionId, { client: CLIENTS.C });
    const sA = c.publish(apiKey, sessionId, A, { videoType: 'camera', name: 'Ana' });
    advanceTo(t, tenAm + 5 * MINUTE);
    const sB = c.publish(apiKey, sessionId, B, { videoType: 'camera', name: 'Bo' });
    advanceTo(t, tenAm + (5 + k) * MINUTE);
    const sC = c.publish(apiKey, sessionId, C, { videoType: 'screen', name: 'Cy' });
    advanceTo(t, tenAm + 20 * MINUTE);
    for (const conn of [A, B, C]) c.disconnect(apiKey, sessionId, conn);
    days.push({ sessionId, connections: { A, B, C }, streams: { A: sA, B: sB, C: sC } });
  }
  return days;
}

/** PNG width and height from its IHDR chunk, after checking the signature. */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (!png.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error(`not a PNG: ${png.subarray(0, 8).toString('hex')}`);
  if (png.subarray(12, 16).toString('ascii') !== 'IHDR') throw new Error('the first PNG chunk is not IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** GraphQL requests the emulator received so far. */
export function graphqlRequests(t: TestApp): number {
  return t.emulator.control.requestLog().filter((e) => e.path.endsWith('/graphql')).length;
}

/** The image block of a posted report that shows the uploaded chart, if it has one. */
export function chartImageBlock(body: Record<string, unknown>): { slack_file: { id: string }; alt_text: string; title?: { text: string } } | undefined {
  const blocks = Array.isArray(body.blocks) ? (body.blocks as { type?: string; slack_file?: { id?: string } }[]) : [];
  return blocks.find((b) => b.type === 'image' && typeof b.slack_file?.id === 'string') as ReturnType<typeof chartImageBlock>;
}

/** Waits for the report posted in `channel` with its chart as an image block, and the upload it shows. */
export async function postedReportWithChart(t: TestApp, channel: string, since: number): Promise<{ call: RecordedCall; upload: RecordedUpload }> {
  const call = await t.waitForSlackCall('chat.postMessage', (c) => c.body.channel === channel && chartImageBlock(c.body) !== undefined, {
    since,
    timeoutMs: 15_000,
  });
  const upload = t.slack.uploads.find((u) => u.fileId === chartImageBlock(call.body)!.slack_file.id)!;
  return { call, upload };
}
