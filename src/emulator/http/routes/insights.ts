import type { Backends } from '../../backends';
import type { Route, RouteResponse } from '../router';

export const INSIGHTS_GRAPHQL_PATH = '/insights/graphql';

const methodNotAllowed = (): RouteResponse => ({
  status: 405,
  headers: { allow: 'POST' },
  json: { errors: [{ message: 'Method not allowed: the Insights interface takes POST requests only', extensions: {} }] },
});

/**
 * `POST {insightsUrl}/graphql`. The handler authenticates itself (`auth: 'none'` here): Insights
 * answers authentication failures as GraphQL `errors` with Insights codes, not REST `{code, message}`.
 */
export function insightsRoutes(b: Backends): Route[] {
  return [
    {
      method: 'POST',
      pattern: INSIGHTS_GRAPHQL_PATH,
      auth: 'none',
      handle: (req) => b.insights.graphql({ headers: req.headers, rawBody: req.rawBody }),
    },
    ...['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].map((method) => ({
      method,
      pattern: INSIGHTS_GRAPHQL_PATH,
      auth: 'none' as const,
      handle: methodNotAllowed,
    })),
  ];
}
