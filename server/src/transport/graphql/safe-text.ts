// Every argument of every field passes the domain's text check before its resolver runs, so NUL
// and lone surrogates are refused the same way on every provider, whichever field carries them.
import { defaultFieldResolver, type GraphQLFieldResolver, type GraphQLSchema, getNamedType, isObjectType, isUnionType } from "graphql";
import { assertSafeText } from "../../domain/safe-text.ts";
import { failureOf } from "./errors.ts";

// Fields name input paths relative to an `input` argument (as the services' validation does).
const checkArgs = (args: Record<string, unknown>) => {
  const { input, ...rest } = args;
  assertSafeText(rest, "");
  if (input !== undefined) assertSafeText(input, "");
};

export function guardTextArguments(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__")) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.args.length === 0) continue;
      const returned = getNamedType(field.type);
      // A field whose result union has a ValidationError member answers with it, like any other invalid input.
      const typedFailure = isUnionType(returned) && returned.getTypes().some((t) => t.name === "ValidationError");
      const resolve: GraphQLFieldResolver<unknown, unknown> = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args, ctx, info) => {
        try {
          checkArgs(args);
        } catch (error) {
          const failure = typedFailure ? failureOf(error) : null;
          if (failure) return failure;
          throw error;
        }
        return resolve(source, args, ctx, info);
      };
      const subscribe = field.subscribe;
      if (subscribe) {
        field.subscribe = (source, args, ctx, info) => {
          checkArgs(args);
          return subscribe(source, args, ctx, info);
        };
      }
    }
  }
  return schema;
}
