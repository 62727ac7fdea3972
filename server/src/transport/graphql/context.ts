// What every resolver receives: the authenticated caller and the services. Resolvers hold no
// business rules; they check the caller's kind and call a service.
import type { Caller } from "../../service/caller.ts";
import type { Services } from "../../services.ts";

export interface GraphQLContext {
  /** null when the request carried no credential (introspection still works). */
  caller: Caller | null;
  services: Services;
  /**
   * Memo for look-ups a page of notifications repeats (engagement, session). It lives for one
   * query or mutation; a subscription shares one context for its whole life, so `perEvent`
   * gives each of its events a fresh memo instead (a stale session label must not outlive it).
   */
  memo: Map<string, Promise<unknown>>;
}

export function newContext(caller: Caller | null, services: Services): GraphQLContext {
  return { caller, services, memo: new Map() };
}

export function memoize<T>(ctx: GraphQLContext, key: string, load: () => Promise<T>): Promise<T> {
  let hit = ctx.memo.get(key) as Promise<T> | undefined;
  if (!hit) {
    hit = load();
    ctx.memo.set(key, hit);
  }
  return hit;
}

/**
 * A subscription's event source, mapped lazily; every event starts with an empty memo (graphql-js
 * resolves one event after the other with the subscription's context). return() passes through
 * so the source is released when the client goes.
 */
export function perEvent<T, U>(ctx: GraphQLContext, source: AsyncIterableIterator<T>, map: (value: T) => U): AsyncIterableIterator<U> {
  const mapped: AsyncIterableIterator<U> = {
    async next() {
      const result = await source.next();
      if (result.done) return { done: true, value: undefined };
      ctx.memo = new Map();
      return { done: false, value: map(result.value) };
    },
    async return() {
      await source.return?.();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]: () => mapped,
  };
  return mapped;
}
