// Which documents may share a render across persons (shared-render.ts, PERSON_FREE): only those
// whose every field, in every operation and fragment, is on the allow-list of fields that do
// not read the caller. A mistake here would send one person's data to another.
import { parse } from "graphql";
import { describe, expect, it } from "vitest";
import { readsNoCaller } from "../../src/realtime/shared-render.ts";
import { schema } from "../../src/transport/graphql/schema.ts";

const check = (source: string) => readsNoCaller(schema, parse(source));

describe("readsNoCaller", () => {
  it("accepts the notification's own fields, nested objects, aliases and __typename", () => {
    expect(
      check(
        "subscription { notificationEvents { cursor type notification { __typename id title status display { title variant } actions { id url } source { plugin } } } }",
      ),
    ).toBe(true);
    expect(check("subscription { e: notificationEvents { c: cursor n: notification { t: title } } }")).toBe(true);
  });

  it("refuses a field that reads the caller, wherever it hides", () => {
    expect(check("subscription { notificationEvents { notification { id lastInvocation { id } } } }")).toBe(false);
    expect(check("subscription { notificationEvents { notification { session { id } } } }")).toBe(false);
    expect(check("subscription { notificationEvents { notification { engagement { id } } } }")).toBe(false);
    expect(check("subscription { notificationEvents { notification { ...N } } } fragment N on Notification { id lastInvocation { id } }")).toBe(false);
    expect(check("subscription { notificationEvents { notification { ... on Notification { lastInvocation { id } } } } }")).toBe(false);
  });

  it("refuses a document whose other operation reads the caller, and any other subscription", () => {
    expect(check("subscription A { notificationEvents { cursor } } query B { notifications { edges { node { lastInvocation { id } } } } }")).toBe(false);
    expect(check("subscription { preferencesEvents { quietMode } }")).toBe(false);
  });
});
