/**
 * undici's connection pool, its agent (a pool per origin) and its request API, without undici's
 * index: the index also loads fetch, WebSocket, EventSource, the HTTP cache, the proxy agents and
 * the mock agent, 110 modules where these need 30. The poller's thread, which loads nothing else
 * of undici, holds 1.8 MB less V8 heap for it (bench/README.md); the main thread loads the index
 * anyway (Bolt's Socket Mode client). The index adds the request API to every dispatcher's
 * prototype; so does this module, the same way.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- undici's modules by path have no type declarations of their own */
import type * as Undici from 'undici';

const Dispatcher = require('undici/lib/dispatcher/dispatcher') as typeof Undici.Dispatcher;
Object.assign(Dispatcher.prototype, require('undici/lib/api') as object);

export const Pool = require('undici/lib/dispatcher/pool') as typeof Undici.Pool;
export type Pool = Undici.Pool;
export const Agent = require('undici/lib/dispatcher/agent') as typeof Undici.Agent;
export type Agent = Undici.Agent;
export type { Dispatcher } from 'undici';
