/**
 * A small typed builder over the graphql-js AST. Queries are assembled as nodes and printed by
 * graphql-js, so user-supplied values become escaped literals and can never change the query's
 * shape. Literals (rather than variables) keep the client independent of the server's scalar
 * type names, which the spec does not give.
 */
import type { ArgumentNode, DocumentNode, FieldNode, OperationDefinitionNode, SelectionSetNode, ValueNode } from 'graphql';
// The language modules alone: graphql's index loads its whole library (129 modules, ~10 MB of RSS).
import { OperationTypeNode } from 'graphql/language/ast';
import { Kind } from 'graphql/language/kinds';
import { print } from 'graphql/language/printer';
import { InsightsError } from './errors';

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** An enum literal such as `DAILY` or `US`, printed without quotes. */
export class GqlEnum {
  constructor(readonly value: string) {
    if (!NAME.test(value) || value === 'true' || value === 'false' || value === 'null') {
      throw new InsightsError(`“${value}” is not a valid option value.`, { code: 'INVALID_ARGUMENT' });
    }
  }
}

export const gqlEnum = (value: string): GqlEnum => new GqlEnum(value);

export type GqlInput = string | number | boolean | GqlEnum | readonly GqlInput[];
export type GqlArgs = Readonly<Record<string, GqlInput | undefined>>;
export type Selection = string | FieldNode;

export function valueNode(value: GqlInput): ValueNode {
  if (value instanceof GqlEnum) return { kind: Kind.ENUM, value: value.value };
  if (Array.isArray(value)) return { kind: Kind.LIST, values: value.map(valueNode) };
  switch (typeof value) {
    case 'string':
      return { kind: Kind.STRING, value };
    case 'boolean':
      return { kind: Kind.BOOLEAN, value };
    case 'number':
      if (Number.isSafeInteger(value)) return { kind: Kind.INT, value: String(value) };
      if (Number.isFinite(value)) return { kind: Kind.FLOAT, value: String(value) };
      throw new InsightsError(`${value} is not a number Insights accepts.`, { code: 'INVALID_ARGUMENT' });
    default:
      throw new InsightsError('Unsupported query value.', { code: 'INVALID_ARGUMENT' });
  }
}

function name(value: string) {
  if (!NAME.test(value)) throw new InsightsError(`“${value}” is not a GraphQL name.`, { code: 'INVALID_ARGUMENT' });
  return { kind: Kind.NAME, value } as const;
}

function selectionSet(selections: readonly Selection[]): SelectionSetNode {
  return {
    kind: Kind.SELECTION_SET,
    selections: selections.map((s) => (typeof s === 'string' ? field(s) : s)),
  };
}

/** A field with optional arguments (undefined ones are left out) and sub-selections. */
export function field(fieldName: string, args: GqlArgs = {}, selections?: readonly Selection[]): FieldNode {
  const argumentNodes: ArgumentNode[] = Object.entries(args)
    .filter((entry): entry is [string, GqlInput] => entry[1] !== undefined)
    .map(([argName, value]) => ({ kind: Kind.ARGUMENT, name: name(argName), value: valueNode(value) }));
  return {
    kind: Kind.FIELD,
    name: name(fieldName),
    arguments: argumentNodes,
    selectionSet: selections && selections.length > 0 ? selectionSet(selections) : undefined,
  };
}

export function queryDocument(operationName: string, selections: readonly Selection[]): DocumentNode {
  const operation: OperationDefinitionNode = {
    kind: Kind.OPERATION_DEFINITION,
    operation: OperationTypeNode.QUERY,
    name: name(operationName),
    selectionSet: selectionSet(selections),
  };
  return { kind: Kind.DOCUMENT, definitions: [operation] };
}

export const printQuery = (document: DocumentNode): string => print(document);

/** The service rejects queries that could return more than this many nodes. */
export const NODE_BUDGET = 500_000;

/**
 * Upper bound of the objects a query can return: for each list field, the product of the page
 * sizes (`first`, or the number of `sessionIds` asked for) along its path, summed over lists.
 */
export function estimateNodes(document: DocumentNode): number {
  let total = 0;
  const visit = (set: SelectionSetNode | undefined, multiplier: number): void => {
    for (const selection of set?.selections ?? []) {
      if (selection.kind !== Kind.FIELD) continue;
      const fanOut = listSize(selection);
      const next = multiplier * (fanOut ?? 1);
      if (fanOut !== undefined) total += next;
      visit(selection.selectionSet, next);
    }
  };
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) visit(definition.selectionSet, 1);
  }
  return total;
}

function listSize(node: FieldNode): number | undefined {
  for (const arg of node.arguments ?? []) {
    if (arg.name.value === 'first' && arg.value.kind === Kind.INT) return Number(arg.value.value);
    if (arg.name.value === 'sessionIds' && arg.value.kind === Kind.LIST) return arg.value.values.length;
  }
  return undefined;
}
