/**
 * A tiny GraphQL endpoint on 127.0.0.1 for client tests: it records each request (headers and
 * parsed query) and answers with whatever the test's handler returns. It checks that every query
 * is valid GraphQL syntax, and nothing about the schema: that is the emulator's job.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Kind, parse, valueFromASTUntyped, visit, type DocumentNode } from 'graphql';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  query: string;
  document: DocumentNode;
}

export type Reply =
  | { status?: number; json: unknown; headers?: Record<string, string> }
  | { status?: number; text: string; headers?: Record<string, string> }
  | { destroy: true };

export type Handler = (req: RecordedRequest, index: number) => Reply | Promise<Reply>;

export interface FakeInsights {
  url: string;
  requests: RecordedRequest[];
  setHandler(handler: Handler): void;
  close(): Promise<void>;
}

export async function startFakeInsights(handler: Handler = () => ({ json: { data: {} } })): Promise<FakeInsights> {
  let current = handler;
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        const query = String(body['query']);
        const recorded: RecordedRequest = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body,
          query,
          document: parse(query),
        };
        requests.push(recorded);
        const reply = await current(recorded, requests.length - 1);
        send(res, reply);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setHandler: (h) => {
      current = h;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res: ServerResponse, reply: Reply): void {
  if ('destroy' in reply) {
    res.socket?.destroy();
    return;
  }
  const text = 'json' in reply ? JSON.stringify(reply.json) : reply.text;
  res.writeHead(reply.status ?? 200, { 'content-type': 'json' in reply ? 'application/json' : 'text/plain', ...reply.headers });
  res.end(text);
}

/** Arguments of the first field called `fieldName` in a document, as plain values. Enum values come
 * back as their names. */
export function argsOf(document: DocumentNode, fieldName: string): Record<string, unknown> | undefined {
  let found: Record<string, unknown> | undefined;
  visit(document, {
    Field(node) {
      if (found || node.name.value !== fieldName) return;
      found = Object.fromEntries((node.arguments ?? []).map((a) => [a.name.value, valueFromASTUntyped(a.value)]));
    },
  });
  return found;
}

/** The kind of literal an argument was sent as (`IntValue`, `StringValue`, `EnumValue`, …). */
export function argKind(document: DocumentNode, fieldName: string, argName: string): Kind | undefined {
  let kind: Kind | undefined;
  visit(document, {
    Field(node) {
      if (kind || node.name.value !== fieldName) return;
      kind = node.arguments?.find((a) => a.name.value === argName)?.value.kind;
    },
  });
  return kind;
}

/** Names of the fields selected directly under `fieldName`'s `resources`. */
export function selectedUnder(document: DocumentNode, path: readonly string[]): string[] {
  let names: string[] = [];
  const walk = (node: { selectionSet?: { selections: readonly unknown[] } }, rest: readonly string[]): void => {
    const fields = (node.selectionSet?.selections ?? []).filter(
      (s): s is { kind: Kind.FIELD; name: { value: string }; selectionSet?: { selections: readonly unknown[] } } => (s as { kind: Kind }).kind === Kind.FIELD,
    );
    if (rest.length === 0) {
      names = fields.map((f) => f.name.value);
      return;
    }
    const next = fields.find((f) => f.name.value === rest[0]);
    if (next) walk(next, rest.slice(1));
  };
  const op = document.definitions[0] as unknown as { selectionSet: { selections: readonly unknown[] } };
  walk(op, path);
  return names;
}
