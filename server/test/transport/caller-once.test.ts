// A request's credential is looked up once: the caller gate authenticates it before the body is
// read, and whatever asks again for that request (the upload gate inside the body limit, the
// GraphQL context after the body limit has replaced the request object) reuses that caller.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";

const UPLOAD = `mutation($file: File!) { uploadAsset(file: $file) { __typename } }`;

describe("the caller of a request", () => {
  let h: TestHerald;
  beforeAll(async () => {
    h = await startHerald(providers[0]!);
  });
  afterAll(async () => h?.close());

  /** The Authorization headers `authenticate` was asked about while `send` ran. */
  async function authenticationsOf(send: () => Promise<void>): Promise<string[]> {
    const auth = h.herald.services.auth;
    const authenticate = auth.authenticate.bind(auth);
    const asked: string[] = [];
    auth.authenticate = (authorization) => {
      asked.push(authorization ?? "");
      return authenticate(authorization);
    };
    try {
      await send();
    } finally {
      auth.authenticate = authenticate;
    }
    return asked;
  }

  it("is authenticated once for a publish, with its body read in between", async () => {
    const person = await h.newPerson("Ada");
    const asked = await authenticationsOf(async () => {
      const published = await h.publish({ scope: "PERSON", personId: person.id, key: "once", title: "Once" });
      expect(published.__typename).toBe("Notification");
    });
    expect(asked).toEqual([`Bearer ${h.producerKey}`]);
  });

  it("is authenticated once for a file upload, which the upload gate checks before the body is read", async () => {
    const asked = await authenticationsOf(async () => {
      const form = new FormData();
      form.set("operations", JSON.stringify({ query: UPLOAD, variables: { file: null } }));
      form.set("map", JSON.stringify({ 0: ["variables.file"] }));
      form.set("0", new Blob([new Uint8Array([1, 2, 3])], { type: "application/octet-stream" }), "once.bin");
      const response = await fetch(h.url, { method: "POST", headers: { authorization: `Bearer ${h.producerKey}` }, body: form });
      const body = (await response.json()) as { data?: { uploadAsset?: { __typename: string } } };
      expect(body.data?.uploadAsset?.__typename, JSON.stringify(body)).toBe("Asset");
    });
    expect(asked).toEqual([`Bearer ${h.producerKey}`]);
  });
});
