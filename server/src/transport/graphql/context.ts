// What every resolver receives: the authenticated caller and the services. Resolvers hold no
// business rules; they check the caller's kind and call a service.
import DataLoader from "dataloader";
import type { Caller } from "../../service/caller.ts";
import type { Services } from "../../services.ts";
import { StreamEnded } from "../../realtime/stream-registry.ts";

export interface GraphQLContext {
  /** null when the request carried no credential (introspection still works). */
  caller: Caller | null;
  services: Services;
  /**
   * Memo for look-ups a page of notifications repeats (engagement, session). It lives for one
   * query or mutation; a subscription shares one context for its whole life, so its root field
   * gives each of its events a fresh memo instead (a stale session label must not outlive it).
   */
  memo: Map<string, unknown>;
  /** The client's address (transport/http/client-address.ts), for budgets kept per client. */
  clientAddress: string;
  /** Counts sign-in link redemptions (transport/http/sign-in-budget.ts). */
  signIn: SignInAdmission;
}

export interface SignInAdmission {
  admit(code: string, client: string): Promise<void>;
}

/**
 * A look-up batched over the fields resolved together (a page of notifications asks once, not
 * once per row), kept in the memo: per query, or per event of a subscription.
 */
export function batchedLoad<V>(ctx: GraphQLContext, name: string, load: (keys: readonly string[]) => Promise<Map<string, V>>, key: string): Promise<V | null> {
  const memoKey = `loader:${name}`;
  let loader = ctx.memo.get(memoKey) as DataLoader<string, V | null> | undefined;
  if (!loader) {
    loader = new DataLoader<string, V | null>(async (keys) => {
      const found = await load(keys);
      return keys.map((k) => found.get(k) ?? null);
    });
    ctx.memo.set(memoKey, loader);
  }
  return loader.load(key);
}

export function newContext(caller: Caller | null, services: Services, clientAddress: string, signIn: SignInAdmission): GraphQLContext {
  return { caller, services, memo: new Map(), clientAddress, signIn };
}

export function memoize<T>(ctx: GraphQLContext, key: string, load: () => Promise<T>): Promise<T> {
  let hit = ctx.memo.get(key) as Promise<T> | undefined;
  if (!hit) {
    hit = load();
    ctx.memo.set(key, hit);
  }
  return hit;
}

/** A stream ended for its caller's sake (a revoked credential) carries the reason as its last result. */
export function endedOr<T>(value: T | StreamEnded): T {
  if (value instanceof StreamEnded) throw value.error;
  return value;
}
