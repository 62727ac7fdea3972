// Failures a caller must handle come back as union members, told apart by __typename.
// graphql-js treats a returned Error instance as a thrown one, so expected failures are turned
// into plain objects (Failure) before they leave the resolver.
import {
  type DomainError,
  NotFoundError,
  NotificationTransitionError,
  OperationMismatchError,
  RevisionConflictError,
  ValidationError,
} from "../../../domain/errors.ts";
import type { NotificationRecord } from "../../../domain/notification.ts";
import { builder } from "../builder.ts";
import { NotificationRef } from "./notification.ts";

const failureTypes = {
  RevisionConflictError,
  NotificationTransitionError,
  OperationMismatchError,
  NotFoundError,
  ValidationError,
} as const;
type FailureName = keyof typeof failureTypes;

export interface Failure {
  __typename: FailureName;
  message: string;
  field?: string;
  current?: NotificationRecord;
}

const UserErrorInterface = builder.interfaceRef<Failure>("UserError").implement({
  fields: (t) => ({ message: t.exposeString("message") }),
});

const failureRef = (name: FailureName, description: string) =>
  builder.objectRef<Failure>(name).implement({
    description,
    interfaces: [UserErrorInterface],
    isTypeOf: (value) => (value as Failure).__typename === name,
    fields: (t): Record<string, ReturnType<typeof t.string>> => {
      if (name === "ValidationError") {
        return { field: t.string({ description: "Dotted path of the offending input field.", resolve: (f) => f.field ?? "" }) };
      }
      if (name === "NotFoundError") return {};
      return { current: t.field({ type: NotificationRef, resolve: (f) => f.current! }) as never };
    },
  });

const RevisionConflictErrorRef = failureRef(
  "RevisionConflictError",
  "The record changed since the caller saw it; nothing was changed. `current` is what it is now.",
);
const NotificationTransitionErrorRef = failureRef("NotificationTransitionError", "The record is already in another terminal state.");
const OperationMismatchErrorRef = failureRef(
  "OperationMismatchError",
  "The update came from an operation occurrence that is not the active one for this key.",
);
const NotFoundErrorRef = failureRef("NotFoundError", "No such notification, or not one the caller may see.");
export const ValidationErrorRef = failureRef("ValidationError", "The input broke a rule; nothing was written.");

const resolveType = (value: NotificationRecord | Failure) => ("__typename" in value ? value.__typename : "Notification");

export const DismissNotificationResult = builder.unionType("DismissNotificationResult", {
  types: [NotificationRef, RevisionConflictErrorRef, NotificationTransitionErrorRef, NotFoundErrorRef, ValidationErrorRef],
  resolveType,
});

export const PublishNotificationResult = builder.unionType("PublishNotificationResult", {
  types: [NotificationRef, OperationMismatchErrorRef, ValidationErrorRef, NotFoundErrorRef, NotificationTransitionErrorRef],
  resolveType,
});

export const ResolveNotificationResult = builder.unionType("ResolveNotificationResult", {
  types: [NotificationRef, NotificationTransitionErrorRef, OperationMismatchErrorRef, NotFoundErrorRef, ValidationErrorRef],
  resolveType,
});

/** Runs a mutation; the listed failures become union members, anything else propagates. */
export async function asResult<T>(run: () => Promise<T>, expected: readonly FailureName[]): Promise<T | Failure> {
  try {
    return await run();
  } catch (error) {
    const name = (Object.keys(failureTypes) as FailureName[]).find((n) => error instanceof failureTypes[n]);
    if (!name || !expected.includes(name)) throw error;
    const e = error as DomainError & { field?: string; current?: NotificationRecord };
    return { __typename: name, message: e.message, field: e.field, current: e.current };
  }
}
