import { GraphQLError, type GraphQLErrorOptions } from 'graphql';

/** The Insights `errorCode` values of the spec. */
export const CODES = {
  invalidApiKey: 1000,
  noAuthentication: 1001,
  invalidDateRange: 1002,
  oneInterval: 1003,
  invalidParameters: 1004,
  invalidParameter: 1005,
  notAnInteger: 1006,
  invalidSdkVersion: 1007,
  invalidProjectId: 1008,
  unavailableFilter: 1009,
  oneValue: 1010,
  invalidToken: 1011,
  internal: 1012,
  missingParameter: 1013,
  advancedInsightsRequired: 1014,
  projectNotFound: 1015,
  sessionExpired: 1016,
  sessionNotFound: 1017,
  sessionIdsRequired: 1018,
  tokenMismatch: 1019,
  tokenUnverifiable: 1020,
  notAuthorized: 1021,
  typeError: 1022,
} as const;

export type ErrorCode = (typeof CODES)[keyof typeof CODES];

/**
 * An Insights failure. Thrown from resolvers, graphql-js wraps it in a GraphQLError and copies
 * `extensions` from it, so the code survives into the answer with the field's path.
 */
export class InsightsError extends Error {
  override readonly name = 'InsightsError';
  readonly extensions: { errorCode: ErrorCode };

  constructor(
    readonly errorCode: ErrorCode,
    message: string,
  ) {
    super(message);
    this.extensions = { errorCode };
  }
}

/** A GraphQL error carrying an Insights code, for places that report GraphQLErrors (scalars, checks). */
export function codedGraphQLError(errorCode: ErrorCode, message: string, options: GraphQLErrorOptions = {}): GraphQLError {
  return new GraphQLError(message, { ...options, extensions: { ...options.extensions, errorCode } });
}

/** One entry of the answer's `errors`: the spec's `{message, locations, path, errorCode}`, code also in `extensions`. */
export interface WireError {
  message: string;
  locations?: ReadonlyArray<{ line: number; column: number }>;
  path?: ReadonlyArray<string | number>;
  errorCode?: number;
  extensions: Record<string, unknown>;
}

const MISSING = /is required, but it was not provided|of required type .* was not provided/;

/**
 * Serializes a GraphQL error. Codes come from the error itself; otherwise syntax and validation
 * problems are 1022 (type error, "see the message") except a missing required argument or
 * variable (1013), and anything unexpected during execution is 1012.
 */
export function toWire(error: GraphQLError, phase: 'validation' | 'execution'): WireError {
  const own = error.extensions.errorCode;
  let errorCode: number;
  if (typeof own === 'number') errorCode = own;
  else if (phase === 'validation') errorCode = MISSING.test(error.message) ? CODES.missingParameter : CODES.typeError;
  else errorCode = CODES.internal;
  const wire: WireError = { message: error.message, errorCode, extensions: { ...error.extensions, errorCode } };
  if (error.locations) wire.locations = error.locations.map(({ line, column }) => ({ line, column }));
  if (error.path) wire.path = error.path;
  return wire;
}

/** An error that concerns the whole request (authentication, limits, body): no locations or path. */
export function requestError(errorCode: number | undefined, message: string, extensions: Record<string, unknown> = {}): WireError {
  if (errorCode === undefined) return { message, extensions };
  return { message, errorCode, extensions: { ...extensions, errorCode } };
}
