/** `project { projectData }`: aggregated usage metrics per interval and group. */
import { z } from 'zod';
import { enumList, inclusiveEnd, invalid, pageSize, projectField, timeLiteral } from './common';
import { field, gqlEnum, queryDocument, type Selection } from './gql';
import { PARTICIPANT_BUCKETS, participantMinutesSchema, type ParticipantBucket } from './participantMinutes';
import { amount, nullableString, pageInfoSchema, timestamp } from './schemas';

export const INTERVALS = ['DAILY', 'WEEKLY', 'MONTHLY', 'AUTO'] as const;
export type Interval = (typeof INTERVALS)[number];

/** groupBy value → the Metric field that carries the group's value. */
export const GROUP_BY_FIELD = {
  SDK_TYPE: 'sdkType',
  SDK_VERSION: 'sdkVersion',
  COUNTRY: 'country',
  REGION: 'region',
  BROWSER: 'browser',
  BROWSER_VERSION: 'browserVersion',
} as const;
export type GroupBy = keyof typeof GROUP_BY_FIELD;
export type Dimension = (typeof GROUP_BY_FIELD)[GroupBy];

export interface UsageFilters {
  /** ISO 3166 alpha-2 codes, e.g. `US`. */
  country?: readonly string[];
  region?: readonly string[];
  /** Browser enum names, e.g. `CHROME`. */
  browser?: readonly string[];
  browserVersion?: readonly string[];
  /** `0.0.0` format. */
  sdkVersion?: readonly string[];
}

export interface ProjectUsageParams {
  /** Epoch ms, inclusive; 0 means the earliest data available. */
  start: number;
  /** Epoch ms, exclusive. */
  end?: number;
  interval?: Interval;
  /** SDK type enum names, e.g. `JS`, `ANDROID`, `IOS`. */
  sdkType?: readonly string[];
  groupBy?: GroupBy;
  first?: number;
  endCursor?: string;
  filters?: UsageFilters;
  /** Participant-minute buckets to ask for; default all. */
  participantBuckets?: readonly ParticipantBucket[];
}

export const DEFAULT_METRICS_PAGE = 1_000;
export const MAX_METRICS_PAGE = 10_000;

const ENUM_NAME = /^[A-Z][A-Z0-9_]*$/;
const COUNTRY = /^[A-Z]{2}$/;
const SDK_VERSION = /^\d+\.\d+\.\d+$/;

/** The service cannot split participant minutes by region, SDK or browser (spec, projectData). */
const NO_PARTICIPANT_GROUPS: ReadonlySet<GroupBy> = new Set(['SDK_TYPE', 'SDK_VERSION', 'REGION', 'BROWSER', 'BROWSER_VERSION']);

export function participantMinutesAvailable(params: Pick<ProjectUsageParams, 'groupBy' | 'sdkType' | 'filters'>): boolean {
  const f = params.filters ?? {};
  const filtered = [params.sdkType, f.region, f.browser, f.browserVersion, f.sdkVersion].some((v) => (v?.length ?? 0) > 0);
  return !filtered && !(params.groupBy !== undefined && NO_PARTICIPANT_GROUPS.has(params.groupBy));
}

export function projectUsageQuery(projectId: string, params: ProjectUsageParams) {
  const f = params.filters ?? {};
  if (params.end !== undefined && params.end <= params.start) invalid('The end of the range must come after its start.');
  if (params.interval !== undefined && !INTERVALS.includes(params.interval)) invalid(`The interval must be one of ${INTERVALS.join(', ')}.`);
  if (params.groupBy !== undefined && !(params.groupBy in GROUP_BY_FIELD)) {
    invalid(`Usage can be grouped by ${Object.keys(GROUP_BY_FIELD).join(', ')}.`);
  }
  for (const v of f.sdkVersion ?? []) {
    if (!SDK_VERSION.test(v.trim())) invalid(`The SDK version “${v}” is invalid: use the format 0.0.0, for example 2.27.1.`);
  }

  const args = {
    start: timeLiteral(params.start, 'start'),
    end: params.end === undefined ? undefined : timeLiteral(inclusiveEnd(params.end), 'end'),
    interval: params.interval && gqlEnum(params.interval),
    sdkType: enumList(params.sdkType, 'SDK type', ENUM_NAME, 'JS, ANDROID or IOS'),
    groupBy: params.groupBy && gqlEnum(params.groupBy),
    country: enumList(f.country, 'country code', COUNTRY, 'US or FR'),
    region: enumList(f.region, 'region', ENUM_NAME, 'EUROPE'),
    browser: enumList(f.browser, 'browser', ENUM_NAME, 'CHROME or FIREFOX'),
    browserVersion: f.browserVersion?.length ? f.browserVersion.map((v) => v.trim()) : undefined,
    sdkVersion: f.sdkVersion?.length ? f.sdkVersion.map((v) => v.trim()) : undefined,
    first: pageSize(params.first, DEFAULT_METRICS_PAGE, MAX_METRICS_PAGE, 'metrics'),
    endCursor: params.endCursor,
  };

  const usage: Selection[] = ['streamedPublishedMinutes', 'streamedSubscribedMinutes'];
  if (participantMinutesAvailable(params)) {
    usage.push(field('participantMinutes', {}, params.participantBuckets ?? PARTICIPANT_BUCKETS));
  }
  const dimension = params.groupBy && GROUP_BY_FIELD[params.groupBy];
  const resources: Selection[] = ['intervalStart', 'intervalEnd', 'sdkType'];
  if (dimension && dimension !== 'sdkType') resources.push(dimension);
  resources.push(field('usage', {}, usage));

  return queryDocument('ProjectUsage', [
    projectField(projectId, [field('projectData', args, [field('pageInfo', {}, ['hasNextPage', 'endCursor']), field('resources', {}, resources)])]),
  ]);
}

const usageSchema = z
  .looseObject({
    streamedPublishedMinutes: amount,
    streamedSubscribedMinutes: amount,
    participantMinutes: participantMinutesSchema.nullish(),
  })
  .nullish()
  .transform((u) => ({
    streamedPublishedMinutes: u?.streamedPublishedMinutes ?? 0,
    streamedSubscribedMinutes: u?.streamedSubscribedMinutes ?? 0,
    /** null when not asked for (or not available for this grouping/filter). */
    participantMinutes: u?.participantMinutes ?? null,
  }));

export const metricSchema = z.looseObject({
  intervalStart: timestamp,
  intervalEnd: timestamp,
  sdkType: nullableString,
  sdkVersion: nullableString,
  country: nullableString,
  region: nullableString,
  browser: nullableString,
  browserVersion: nullableString,
  usage: usageSchema,
});

export type Metric = z.infer<typeof metricSchema>;

export const projectUsageResponse = z.looseObject({
  project: z.looseObject({
    projectData: z.looseObject({
      pageInfo: pageInfoSchema,
      resources: z
        .array(metricSchema)
        .nullish()
        .transform((r) => r ?? []),
    }),
  }),
});
