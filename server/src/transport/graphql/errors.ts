// Failures a caller must handle come back as union members, told apart by __typename. Each
// result union is declared here once, with the failures it may carry; `asResult` turns exactly
// those into members (anything else stays a GraphQL error), and tests read the members from the
// built schema. graphql-js treats a returned Error instance as a thrown one, so expected failures
// become plain objects (Failure) before they leave the resolver.
import type { ObjectRef, UnionRef } from "@pothos/core";
import {
  type DomainError,
  NotFoundError,
  NotificationTransitionError,
  OperationMismatchError,
  RevisionConflictError,
  ValidationError,
} from "../../domain/errors.ts";
import type { NotificationRecord } from "../../domain/notification.ts";
import type { ReportedExchange } from "../../service/session-service.ts";
import { builder, type HeraldTypes } from "./builder.ts";
import { NotificationRef } from "./notification.ts";
import { ReportedExchangeRef } from "./sessions.ts";

const failureClasses = {
  RevisionConflictError,
  NotificationTransitionError,
  OperationMismatchError,
  NotFoundError,
  ValidationError,
} as const;
export type FailureName = keyof typeof failureClasses;

export interface Failure {
  __typename: FailureName;
  message: string;
  field?: string;
  current?: NotificationRecord;
}

export const UserErrorRef = builder.interfaceRef<Failure>("UserError").implement({
  fields: (t) => ({ message: t.exposeString("message") }),
});

const failureRef = (name: FailureName, description: string, details: "field" | "current" | "none") =>
  builder.objectRef<Failure>(name).implement({
    description,
    interfaces: [UserErrorRef],
    isTypeOf: (value) => (value as Failure).__typename === name,
    fields: (t) => ({
      ...(details === "field" ? { field: t.string({ description: "Dotted path of the offending input field.", resolve: (f) => f.field ?? "" }) } : {}),
      // NotificationRef is read inside this thunk: notification.ts and this file import each other.
      ...(details === "current" ? { current: t.field({ type: NotificationRef, resolve: (f) => f.current! }) } : {}),
    }),
  });

export const RevisionConflictErrorRef = failureRef(
  "RevisionConflictError",
  "The record changed since the caller saw it; nothing was changed. `current` is what it is now.",
  "current",
);
export const NotificationTransitionErrorRef = failureRef(
  "NotificationTransitionError",
  "The record cannot make this move: it is already in another terminal state, or (for a dismissal) it is not dismissible.",
  "current",
);
export const OperationMismatchErrorRef = failureRef(
  "OperationMismatchError",
  "The update came from an operation occurrence that is not the active one for this key.",
  "current",
);
export const NotFoundErrorRef = failureRef("NotFoundError", "No such notification, or not one the caller may see.", "none");
export const ValidationErrorRef = failureRef("ValidationError", "The input broke a rule; nothing was written.", "field");

const failureRefs: Record<FailureName, ObjectRef<HeraldTypes, Failure>> = {
  RevisionConflictError: RevisionConflictErrorRef,
  NotificationTransitionError: NotificationTransitionErrorRef,
  OperationMismatchError: OperationMismatchErrorRef,
  NotFoundError: NotFoundErrorRef,
  ValidationError: ValidationErrorRef,
};

export type ResultUnion<T> = UnionRef<HeraldTypes, T | Failure, T | Failure>;

const expectedFailures = new WeakMap<object, readonly FailureName[]>();

/**
 * Declares a mutation's result union: its success type (a thunk, as entity files import this
 * one) or one of the listed failures. A new one goes here beside the others, e.g.
 * `resultUnion("EmitEventResult", () => EmitEventSuccessRef, ["ValidationError"])`, and its
 * resolver returns `asResult(EmitEventResult, () => service call)`.
 */
export function resultUnion<T extends object>(name: string, success: () => ObjectRef<HeraldTypes, T>, failures: readonly FailureName[]) {
  const union = builder.unionType(name, {
    types: () => [success(), ...failures.map((f) => failureRefs[f])],
    resolveType: (value) => ("__typename" in value && (value as Failure).__typename in failureClasses ? (value as Failure).__typename : success().name),
  }) as ResultUnion<T>;
  expectedFailures.set(union, failures);
  return union;
}

export const DismissNotificationResult = resultUnion<NotificationRecord>("DismissNotificationResult", () => NotificationRef, [
  "RevisionConflictError",
  "NotificationTransitionError",
  "NotFoundError",
  "ValidationError",
]);

export const PublishNotificationResult = resultUnion<NotificationRecord>("PublishNotificationResult", () => NotificationRef, [
  "OperationMismatchError",
  "ValidationError",
  "NotFoundError",
  "NotificationTransitionError",
]);

export const ResolveNotificationResult = resultUnion<NotificationRecord>("ResolveNotificationResult", () => NotificationRef, [
  "NotificationTransitionError",
  "OperationMismatchError",
  "NotFoundError",
  "ValidationError",
]);

export const ReportExchangeResult = resultUnion<ReportedExchange>("ReportExchangeResult", () => ReportedExchangeRef, ["ValidationError"]);

/** Runs a mutation; the failures its result union lists become members, anything else propagates. */
export async function asResult<T extends object>(union: ResultUnion<T>, run: () => Promise<T>): Promise<T | Failure> {
  try {
    return await run();
  } catch (error) {
    const failure = failureOf(error);
    if (!failure || !expectedFailures.get(union)?.includes(failure.__typename)) throw error;
    return failure;
  }
}

/** A domain failure as the union member that carries it, or null for any other error. */
export function failureOf(error: unknown): Failure | null {
  const name = (Object.keys(failureClasses) as FailureName[]).find((n) => error instanceof failureClasses[n]);
  if (!name) return null;
  const e = error as DomainError & { field?: string; current?: NotificationRecord };
  return { __typename: name, message: e.message, field: e.field, current: e.current };
}
