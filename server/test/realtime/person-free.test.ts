// The shared render's allow-list (shared-render.ts, PERSON_FREE) names exactly the fields that do
// not read the caller: every field of each type it covers is classified, free or bound
// (PERSON_BOUND), so a field added to the schema fails here until someone decides; and the
// classification is checked by running each field's resolver with a context that fails when
// touched. A field wrongly listed as free would send one person's data to another.
import { type GraphQLObjectType, type GraphQLResolveInfo, isObjectType } from "graphql";
import { describe, expect, it } from "vitest";
import { decidePublish } from "../../src/domain/lifecycle.ts";
import type { NotificationRecord } from "../../src/domain/notification.ts";
import { PERSON_BOUND, PERSON_FREE } from "../../src/realtime/shared-render.ts";
import { validatePublish } from "../../src/domain/validation.ts";
import { schema } from "../../src/transport/graphql/schema.ts";

const typeNames = [...new Set([...Object.keys(PERSON_FREE), ...Object.keys(PERSON_BOUND)])];
const objectType = (name: string): GraphQLObjectType => {
  const type = schema.getType(name);
  if (!isObjectType(type)) throw new Error(`${name} is not an object type of the schema`);
  return type;
};

/** A context whose every read fails: a resolver that reads the caller (or anything of the request) throws. */
const untouchable = new Proxy(
  {},
  {
    get: (_target, property) => {
      throw new Error(`read the context (${String(property)})`);
    },
    has: (_target, property) => {
      throw new Error(`read the context (${String(property)})`);
    },
  },
);

function record(): NotificationRecord {
  const valid = validatePublish(
    {
      scope: "PERSON",
      personId: "p1",
      key: "k",
      title: "Title",
      source: { plugin: "p" },
      engagementId: "e1",
      actions: [{ kind: "OPEN_URL", id: "a", label: "Open", url: "https://example.org/" }],
    },
    new Date("2026-01-01T00:00:00Z"),
  );
  const decision = decidePublish(null, valid.target, valid.key, valid.content, new Date("2026-01-01T00:00:00Z"));
  if (decision.kind !== "create") throw new Error("expected a create");
  return { ...decision.draft, id: "n1", sessionId: "s1" };
}

async function readsContext(type: GraphQLObjectType, field: string, parent: unknown): Promise<boolean> {
  const resolve = type.getFields()[field]!.resolve;
  if (!resolve) return false; // the default resolver reads the parent only
  const info = { fieldName: field, parentType: type, schema, path: { prev: undefined, key: field, typename: type.name } } as unknown as GraphQLResolveInfo;
  try {
    const value = await resolve(parent, {}, untouchable, info);
    if (value && typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function") return true;
    return false;
  } catch (error) {
    return /read the context/.test(String((error as Error).message));
  }
}

describe("the shared render's allow-list", () => {
  it.each(typeNames)("classifies every field of %s as free or bound, never both", (name) => {
    const fields = Object.keys(objectType(name).getFields()).sort();
    const free = [...(PERSON_FREE[name] ?? [])];
    const bound = [...(PERSON_BOUND[name] ?? [])];
    expect(free.filter((f) => bound.includes(f))).toEqual([]);
    expect([...free, ...bound].sort()).toEqual(fields);
  });

  it("lists as free only Notification fields whose resolvers leave the caller alone, and as bound only ones that read it", async () => {
    const type = objectType("Notification");
    const parent = record();
    const free: string[] = [];
    for (const field of PERSON_FREE.Notification!) if (await readsContext(type, field, parent)) free.push(field);
    expect(free).toEqual([]);
    const bound: string[] = [];
    for (const field of PERSON_BOUND.Notification!) if (!(await readsContext(type, field, parent))) bound.push(field);
    expect(bound).toEqual([]);
  });
});
