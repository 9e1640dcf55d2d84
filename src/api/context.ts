import type { HttpTransport } from './http';
import type { Tokens } from './tokens';

/** What every resource area needs from its client. */
export interface ResourceContext {
  readonly http: HttpTransport;
  readonly tokens: Tokens;
  /** The project API key in use (it may change after a secret rotation). */
  apiKey(): string;
}
