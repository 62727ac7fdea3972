// A field of a live event that fails unexpectedly reaches the subscriber masked, in both
// graphql-sse modes: "Unexpected error." with its code, no table name, no stack. (On
// /graphql/stream the masking runs once per shared render, not through Yoga's hooks.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { storeOf } from "../support/store.ts";
import { eventually, subscribe } from "../support/sse.ts";
import { leaks } from "./wire.ts";

const QUERY = `subscription { notificationEvents { type notification { id lastInvocation { id } } } }`;

const sqlite = providers[0]!;

describe("an event whose field fails", () => {
  let h: TestHerald;
  beforeAll(async () => {
    h = await startHerald(sqlite);
  });
  afterAll(async () => h?.close());

  it("is masked for every subscriber, in both modes", async () => {
    const ada = await h.newPerson("Ada");
    const streams = [false, true].map((singleConnection) => subscribe(h.url, ada.token, { query: QUERY, variables: {}, singleConnection }));
    await eventually(() => h.herald.feed.listenersOf(ada.id) === 2, 10_000, "both streams to attach");
    const rename = (from: string, to: string) => storeOf(h.herald.database).sql(`ALTER TABLE "${from}" RENAME TO "${to}"`);
    await rename("ActionInvocation", "ActionInvocation_away");
    try {
      await h.publish({ scope: "PERSON", personId: ada.id, key: "k", title: "t" });
      for (const stream of streams) await eventually(() => stream.errors.length > 0, 10_000, "the event's errors");
    } finally {
      await rename("ActionInvocation_away", "ActionInvocation");
    }
    for (const stream of streams) {
      const [errors] = stream.errors as { message: string; extensions?: { code?: string } }[][];
      expect(errors![0]).toMatchObject({ message: "Unexpected error.", extensions: { code: "INTERNAL_SERVER_ERROR" } });
      expect(JSON.stringify(errors)).not.toMatch(leaks);
      expect(JSON.stringify(errors)).not.toContain("ActionInvocation");
      stream.dispose();
    }
  });
});
