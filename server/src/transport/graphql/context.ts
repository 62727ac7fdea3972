// What every resolver receives: the authenticated caller and the services. Resolvers hold no
// business rules; they check the caller's kind and call a service.
import type { Caller } from "../../service/caller.ts";
import type { Services } from "../../services.ts";

export interface GraphQLContext {
  /** null when the request carried no credential (introspection still works). */
  caller: Caller | null;
  services: Services;
  /** Per-request memo for look-ups a page of notifications repeats (engagement, session). */
  memo: Map<string, Promise<unknown>>;
}

export function memoize<T>(ctx: GraphQLContext, key: string, load: () => Promise<T>): Promise<T> {
  let hit = ctx.memo.get(key) as Promise<T> | undefined;
  if (!hit) {
    hit = load();
    ctx.memo.set(key, hit);
  }
  return hit;
}
