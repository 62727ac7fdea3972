// Another process holding the SQLite file's write lock (a backup, `sqlite3` in a shell) never
// stops the event loop (storage/connection/sqlite-store.ts waits between tries, on timers): /health answers
// meanwhile, a publish waits and goes through once the lock is let go, and a publish whose wait
// passes HERALD_SQLITE_BUSY_MS gets STORAGE_UNAVAILABLE (503, Retry-After) and writes nothing.
import { holdSqliteWriteLock } from "@herald/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteFileOf } from "../../src/storage/connection/database-url.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { storeOf } from "../support/store.ts";

const sqliteCase = providers.find((p) => p.name === "sqlite")!;
const PUBLISH = `mutation($input: PublishNotificationInput!) { publishNotification(input: $input) { __typename ... on Notification { id } } }`;

async function publishRaw(h: TestHerald, personId: string, key: string): Promise<Response> {
  return fetch(h.url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${h.producerKey}` },
    body: JSON.stringify({ query: PUBLISH, variables: { input: { scope: "PERSON", personId, key, title: key, source: { plugin: "tests" } } } }),
  });
}

const health = (h: TestHerald) => fetch(new URL("/health", h.url));
const keyed = (h: TestHerald, key: string) => storeOf(h.herald.database).count("Notification", (q) => q.where("key", "=", key));

describe("a SQLite file locked by another process", () => {
  let h: TestHerald;
  let person: { id: string };
  beforeAll(async () => {
    h = await startHerald(sqliteCase);
    person = await h.newPerson("Ada");
  });
  afterAll(async () => h?.close());

  it("answers /health meanwhile, and a publish waits and then goes through once the lock is let go", async () => {
    const holder = await holdSqliteWriteLock(sqliteFileOf(h.databaseUrl));
    let settled = false;
    const publishing = publishRaw(h, person.id, "waited").finally(() => (settled = true));
    try {
      const answer = await health(h);
      expect(answer.status).toBe(200);
      // The lock is still held: the publish cannot have been written.
      expect(settled).toBe(false);
      expect(await keyed(h, "waited")).toBe(0);
    } finally {
      await holder.release();
    }
    const response = await publishing;
    expect(response.status).toBe(200);
    expect((await response.json()).data.publishNotification.__typename).toBe("Notification");
    expect(await keyed(h, "waited")).toBe(1);
  });
});

describe("a SQLite file locked past the wait", () => {
  let h: TestHerald;
  let person: { id: string };
  beforeAll(async () => {
    h = await startHerald(sqliteCase, { sqliteBusyMs: 200 });
    person = await h.newPerson("Ada");
  });
  afterAll(async () => h?.close());

  it("refuses the publish with STORAGE_UNAVAILABLE (503, Retry-After) and writes nothing", async () => {
    const holder = await holdSqliteWriteLock(sqliteFileOf(h.databaseUrl));
    try {
      const response = await publishRaw(h, person.id, "refused");
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("5");
      const body = await response.json();
      expect(body.errors[0].extensions.code).toBe("STORAGE_UNAVAILABLE");
    } finally {
      await holder.release();
    }
    expect(await keyed(h, "refused")).toBe(0);
    // The lock let go, the next publish goes through.
    const again = await publishRaw(h, person.id, "after");
    expect((await again.json()).data.publishNotification.__typename).toBe("Notification");
  });
});
