import { parse, print } from 'graphql';
import {
  chunkSessionIds,
  estimateNodes,
  graphqlUrl,
  NODE_BUDGET,
  participantMinutesAvailable,
  PARTICIPANT_BUCKETS,
  printQuery,
  projectUsageQuery,
  sessionsQuery,
  sessionSummariesQuery,
} from '../../src/api/insights';
import { field, gqlEnum, queryDocument, valueNode } from '../../src/api/insights/gql';
import { argsOf, selectedUnder } from './fakeInsights';

const START = Date.UTC(2026, 9, 26, 7);

describe('query builder', () => {
  it('prints valid GraphQL whose values cannot break out of their literals', () => {
    const hostile = '") { __schema { types { name } } } #';
    const doc = projectUsageQuery('46123456', { start: START, filters: { browserVersion: [hostile] } });
    const text = printQuery(doc);
    const reparsed = parse(text);
    expect(print(reparsed)).toBe(text);
    expect(argsOf(reparsed, 'projectData')!['browserVersion']).toEqual([hostile]);
    expect(reparsed.definitions).toHaveLength(1);
    expect(selectedUnder(reparsed, [])).toEqual(['project']);
    expect(selectedUnder(reparsed, ['project', 'projectData'])).toEqual(['pageInfo', 'resources']);
  });

  it('rejects enum values and names that are not GraphQL names', () => {
    expect(() => gqlEnum('US] ) {')).toThrow('is not a valid option value');
    expect(() => gqlEnum('true')).toThrow();
    expect(() => field('bad name')).toThrow();
    expect(() => valueNode(Number.NaN)).toThrow();
    expect(() => projectUsageQuery('1', { start: START, filters: { country: ['USA'] } })).toThrow('“USA” is not a valid country code');
    expect(() => projectUsageQuery('1', { start: START, sdkType: ['js; drop'] })).toThrow('not a valid SDK type');
  });

  it('keeps string, integer, float, boolean, enum and list literals apart', () => {
    const doc = queryDocument('Q', [field('f', { s: '1', i: 1, x: 1.5, b: true, e: gqlEnum('DAILY'), l: [gqlEnum('A'), 'b'] }, ['id'])]);
    expect(printQuery(doc)).toBe('query Q {\n  f(s: "1", i: 1, x: 1.5, b: true, e: DAILY, l: [A, "b"]) {\n    id\n  }\n}');
  });

  it('sends start 0 as the integer meaning "earliest available"', () => {
    expect(argsOf(projectUsageQuery('1', { start: 0 }), 'projectData')!['start']).toBe(0);
  });

  it('asks for every participant bucket only where the service can split them', () => {
    const usage = (params: Parameters<typeof projectUsageQuery>[1]) =>
      selectedUnder(projectUsageQuery('1', params), ['project', 'projectData', 'resources', 'usage', 'participantMinutes']);
    expect(usage({ start: START, interval: 'DAILY' })).toEqual([...PARTICIPANT_BUCKETS]);
    expect(usage({ start: START, groupBy: 'COUNTRY' })).toEqual([...PARTICIPANT_BUCKETS]);
    expect(usage({ start: START, groupBy: 'SDK_TYPE' })).toEqual([]);
    expect(usage({ start: START, groupBy: 'BROWSER' })).toEqual([]);
    expect(usage({ start: START, filters: { region: ['EUROPE'] } })).toEqual([]);
    expect(participantMinutesAvailable({ sdkType: ['JS'] })).toBe(false);
    expect(participantMinutesAvailable({ filters: { country: ['US'] } })).toBe(true);
  });

  it('asks sessionSummaries for the meeting totals the report needs', () => {
    const doc = sessionSummariesQuery('1', { start: START, end: START + 86_400_000 });
    expect(selectedUnder(doc, ['project', 'sessionData', 'sessionSummaries', 'resources'])).toEqual(['sessionId', 'meetings']);
    expect(selectedUnder(doc, ['project', 'sessionData', 'sessionSummaries', 'resources', 'meetings', 'resources'])).toEqual([
      'maxConcurrentStreams',
      'maxConcurrentSubscribers',
      'totalStreams',
      'totalConnections',
      'publisherMinutes',
      'subscriberMinutes',
      'participantMinutes',
    ]);
    expect(argsOf(doc, 'sessionSummaries')).toEqual({
      start: '2026-10-26T07:00:00.000Z',
      end: '2026-10-27T06:59:59.999Z',
      first: 500,
    });
  });
});

describe('node budget', () => {
  it('estimates nodes as page sizes multiplied along each path', () => {
    const doc = queryDocument('Q', [
      field('a', { first: 10 }, [field('resources', {}, [field('b', { first: 20 }, [field('resources', {}, [field('c', { first: 5 }, ['x'])])])])]),
    ]);
    expect(estimateNodes(doc)).toBe(10 + 10 * 20 + 10 * 20 * 5);
    expect(estimateNodes(sessionsQuery('1', ['a', 'b', 'c']))).toBe(3 * estimateNodes(sessionsQuery('1', ['a'])));
  });

  it('keeps every default query under 500,000 nodes', () => {
    expect(estimateNodes(projectUsageQuery('1', { start: START }))).toBeLessThan(NODE_BUDGET);
    expect(estimateNodes(sessionSummariesQuery('1', { start: START }))).toBeLessThan(NODE_BUDGET);
    for (const chunk of chunkSessionIds(
      '1',
      Array.from({ length: 100 }, (_, i) => `s${i}`),
    )) {
      expect(estimateNodes(sessionsQuery('1', chunk))).toBeLessThanOrEqual(NODE_BUDGET);
    }
  });

  it('chunks session IDs by the budget of the sizes asked for, without duplicates', () => {
    expect(chunkSessionIds('1', ['a', 'b', 'a', ' c ']).flat()).toEqual(['a', 'b', 'c']);
    const big = chunkSessionIds(
      '1',
      Array.from({ length: 10 }, (_, i) => `s${i}`),
      { meetings: 10, streams: 50, statsPerStream: 480 },
    );
    expect(big.every((c) => c.length === 1)).toBe(true);
    expect(() => chunkSessionIds('1', ['a'], { meetings: 100, streams: 100, statsPerStream: 480 })).toThrow('Insights allows 500,000');
  });
});

describe('graphqlUrl', () => {
  it.each([
    ['https://insights.example.com', 'https://insights.example.com/graphql'],
    ['https://tools.example.com/video/insights-api/', 'https://tools.example.com/video/insights-api/graphql'],
    ['https://insights.example.com/graphql', 'https://insights.example.com/graphql'],
  ])('%s → %s', (input, expected) => {
    expect(graphqlUrl(input).toString()).toBe(expected);
  });

  it('explains an invalid URL', () => {
    expect(() => graphqlUrl('insights')).toThrow('is not a valid URL');
  });
});
