// A request's credential is looked up once: the caller gate authenticates it before the body is
// read, and the GraphQL context reuses that caller although the body limit has replaced the
// request object by then (it was looked up twice, a digest and a cache read more per publish).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";

describe("the caller of a request", () => {
  let h: TestHerald;
  beforeAll(async () => {
    h = await startHerald(providers[0]!);
  });
  afterAll(async () => h?.close());

  it("is authenticated once for a publish, with its body read in between", async () => {
    const person = await h.newPerson("Ada");
    const auth = h.herald.services.auth;
    const authenticate = auth.authenticate.bind(auth);
    const asked: string[] = [];
    auth.authenticate = (authorization) => {
      asked.push(authorization ?? "");
      return authenticate(authorization);
    };
    try {
      const published = await h.publish({ scope: "PERSON", personId: person.id, key: "once", title: "Once" });
      expect(published.__typename).toBe("Notification");
    } finally {
      auth.authenticate = authenticate;
    }
    expect(asked).toEqual([`Bearer ${h.producerKey}`]);
  });
});
