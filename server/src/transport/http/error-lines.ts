// The log line of an error a client receives: a client's mistake at debug without a stack, the
// store's absence as a warning, anything else at error level with its stack. An execution's
// errors are written by useErrorLines, which knows the request and names it; errors outside an
// execution (parse, validation, context) are written by the masking, which knows no request.
import { GraphQLError } from "graphql";
import { handleStreamOrSingleExecutionResult, type Plugin } from "graphql-yoga";
import { DomainError } from "../../domain/errors.ts";
import type { Logger } from "../../logger.ts";
import { isStorageUnavailable } from "../../service/storage-unavailable.ts";
import { requestLogger } from "../../util/request-context.ts";

/** Writes an error's line once, however many steps see it (Yoga's logging is told to skip it too). */
export class ErrorLines {
  private readonly written = new WeakSet<object>();

  constructor(private readonly logger: Logger) {}

  has(error: object): boolean {
    return this.written.has(error);
  }

  /** An error made from one already written (its masked form): masked again, it is not written twice. */
  alreadyWritten<E extends object>(error: E): E {
    this.written.add(error);
    return error;
  }

  write(error: unknown, request?: { headers: Headers }): void {
    if (typeof error === "object" && error !== null) {
      if (this.written.has(error)) return;
      this.written.add(error);
    }
    const log = requestLogger(this.logger, request);
    const original = error instanceof GraphQLError ? error.originalError : error;
    if (original instanceof DomainError) log.debug({ code: original.code }, original.message);
    else if (isStorageUnavailable(original)) log.warn({ err: (original as Error).message }, "storage unavailable");
    // graphql-js's own refusals (a variable that does not fit the schema wraps the scalar's or
    // enum's GraphQLError) are the client's mistake too: no error-level line with a stack.
    else if (error instanceof GraphQLError && (!error.originalError || error.originalError instanceof GraphQLError)) {
      log.debug({ code: error.extensions.code }, error.message);
    } else log.error({ err: original }, "unexpected error");
  }
}

/** Before the masking (which comes last): each execution's errors are written naming their request. */
export function useErrorLines(lines: ErrorLines): Plugin {
  return {
    onExecute({ args }) {
      const request = (args.contextValue as { request?: Request } | undefined)?.request;
      return {
        onExecuteDone: (payload) =>
          handleStreamOrSingleExecutionResult(payload, ({ result }) => {
            for (const error of result.errors ?? []) lines.write(error, request);
          }),
      };
    },
  };
}
