// The query cost limit. A document's cost is what it asks the server to produce: one per field in
// the result, each page's fields times the records the page may hold. The page size is the value
// of `first`/`last` whether it is written in the document or passed as a variable (the default
// page when absent), so the same request costs the same however it is spelt. That needs the
// variables, which Yoga's validation (cached per document) never sees: the check runs when the
// operation starts, still before any resolver. A union's or interface's branches are alternatives
// (the result is one concrete type), so a selection costs its dearest type, not their sum.
import {
  getNamedType,
  getOperationAST,
  GraphQLError,
  isAbstractType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValueNode,
} from "graphql";
import type { Plugin } from "graphql-yoga";

export interface QueryCostOptions {
  maxCost: number;
  /** Records a page holds when `first`/`last` is absent. */
  defaultPageSize: number;
  /** The most records a page may hold; larger values are refused by the field itself, by name. */
  maxPageSize: number;
}

export interface CostRequest {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
}

const PAGE_ARGUMENTS = new Set(["first", "last"]);

/** The estimated cost of the operation a request runs (0 when it names none the document has). */
export function queryCost(request: CostRequest, options: Omit<QueryCostOptions, "maxCost">): number {
  const operation = getOperationAST(request.document, request.operationName);
  if (!operation) return 0;
  const root = request.schema.getRootType(operation.operation);
  if (!root) return 0;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of request.document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const defaults = new Map<string, ValueNode | undefined>(operation.variableDefinitions?.map((v) => [v.variable.name.value, v.defaultValue]) ?? []);
  const variables = request.variables ?? {};

  const intOf = (value: ValueNode): number | null => {
    if (value.kind === Kind.INT) return Number.parseInt(value.value, 10);
    if (value.kind !== Kind.VARIABLE) return null;
    const name = value.name.value;
    const given = variables[name];
    if (typeof given === "number") return given;
    if (given === undefined) {
      const fallback = defaults.get(name);
      return fallback ? intOf(fallback) : null;
    }
    return null;
  };

  const pageSize = (args: readonly { name: { value: string }; value: ValueNode }[] | undefined): number => {
    let size: number | null = null;
    for (const arg of args ?? []) {
      if (!PAGE_ARGUMENTS.has(arg.name.value)) continue;
      const value = intOf(arg.value);
      if (value !== null) size = Math.max(size ?? 0, value);
    }
    // Out-of-range sizes are the field's to refuse, naming the argument; here they count as the most.
    return Math.min(Math.max(size ?? options.defaultPageSize, 0), options.maxPageSize);
  };

  const typeCovers = (condition: string | undefined, concrete: GraphQLObjectType): boolean => {
    if (!condition || condition === concrete.name) return true;
    const type = request.schema.getType(condition);
    return !!type && isAbstractType(type) && request.schema.isSubType(type, concrete);
  };

  const costOf = (selectionSet: SelectionSetNode, parent: GraphQLNamedType, spreading: Set<string>): number => {
    const concretes = isAbstractType(parent) ? request.schema.getPossibleTypes(parent) : isObjectType(parent) ? [parent] : [];
    let dearest = 0;
    for (const concrete of concretes) dearest = Math.max(dearest, costFor(selectionSet, concrete, spreading));
    return dearest;
  };

  const costFor = (selectionSet: SelectionSetNode, type: GraphQLObjectType, spreading: Set<string>): number => {
    let cost = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        if (name === "__typename") continue;
        const field = type.getFields()[name];
        if (!field) continue;
        if (!selection.selectionSet) {
          cost += 1;
          continue;
        }
        const size = field.args.some((a) => PAGE_ARGUMENTS.has(a.name)) ? pageSize(selection.arguments) : 1;
        cost += 1 + size * costOf(selection.selectionSet, getNamedType(field.type), spreading);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (typeCovers(selection.typeCondition?.name.value, type)) cost += costFor(selection.selectionSet, type, spreading);
      } else {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        // Validation has refused cycles before any operation starts; the guard keeps this total anyway.
        if (!fragment || spreading.has(name) || !typeCovers(fragment.typeCondition.name.value, type)) continue;
        cost += costFor(fragment.selectionSet, type, new Set(spreading).add(name));
      }
    }
    return cost;
  };

  return costFor(operation.selectionSet, root, new Set());
}

export function tooCostly(cost: number, maxCost: number): GraphQLError {
  return new GraphQLError(`The query's estimated cost is ${cost}, over the limit of ${maxCost}: ask for fewer fields or smaller pages`, {
    extensions: { code: "QUERY_TOO_COSTLY", cost, maxCost, http: { status: 400 } },
  });
}

/** Refuses an operation over the limit when it starts (query, mutation or subscription), before any resolver runs. */
export function useQueryCostLimit(options: QueryCostOptions): Plugin {
  const check = (args: { schema: GraphQLSchema; document: DocumentNode; operationName?: string | null; variableValues?: Record<string, unknown> | null }) => {
    const cost = queryCost({ schema: args.schema, document: args.document, operationName: args.operationName, variables: args.variableValues }, options);
    return cost > options.maxCost ? tooCostly(cost, options.maxCost) : null;
  };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const refusal = check(args);
      if (refusal) setResultAndStopExecution({ errors: [refusal] });
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const refusal = check(args);
      if (refusal) setResultAndStopExecution({ errors: [refusal] });
    },
  };
}
