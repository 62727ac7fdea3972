// MARKDOWN bodies reach every client as HTML the server rendered (`NotificationDisplay.bodyHtml`),
// on both stores: in the list, in a single read and on the live stream alike, with what a
// producer writes as markup escaped; TEXT bodies have none, and the stored body stays as written.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { eventually, subscribe } from "../support/sse.ts";

const HOSTILE = '**Deploy** done: <img src=x onerror="alert(1)"> [log](javascript:alert(1)) [run](https://ci.example.com/r/1)';
const RENDERED =
  '<p><strong>Deploy</strong> done: &lt;img src=x onerror=&quot;alert(1)&quot;&gt; log <a href="https://ci.example.com/r/1" target="_blank" rel="noopener noreferrer nofollow">run</a></p>\n';
const DISPLAY = "display { format body bodyHtml }";

for (const provider of providers) {
  describe.skipIf(!provider.available)(`Markdown bodies rendered by the server on ${provider.name}`, () => {
    let h: TestHerald;
    beforeAll(async () => {
      h = await startHerald(provider, { heartbeatMs: 200, feedPollMs: 200 });
    });
    afterAll(async () => h?.close());

    it("the list, a single read and the stream carry the same safe HTML; TEXT has none", async () => {
      const ada = await h.newPerson("Ada");
      const stream = subscribe(h.url, ada.token, { query: `subscription { notificationEvents { type notification { id ${DISPLAY} } } }`, variables: {} });
      await h.attached(ada.id);
      const md = await h.publish({ scope: "PERSON", personId: ada.id, key: "md", title: "Deploy", body: HOSTILE, display: { format: "MARKDOWN" } });
      const text = await h.publish({ scope: "PERSON", personId: ada.id, key: "text", title: "Plain", body: "**not** markdown" });

      const list = await gql(h.url, ada.token, `{ notifications(first: 10) { edges { node { id ${DISPLAY} } } } }`);
      const byId = new Map(list.data.notifications.edges.map((e: { node: { id: string } }) => [e.node.id, e.node]));
      expect(byId.get(md.id)).toEqual({ id: md.id, display: { format: "MARKDOWN", body: HOSTILE, bodyHtml: RENDERED } });
      expect(byId.get(text.id)).toEqual({ id: text.id, display: { format: "TEXT", body: "**not** markdown", bodyHtml: null } });

      const one = await gql(h.url, ada.token, `query($id: ID!) { notification(id: $id) { ${DISPLAY} } }`, { id: md.id });
      expect(one.data.notification.display.bodyHtml).toBe(RENDERED);

      type Ev = { notification: { id: string; display: { bodyHtml: string | null } } };
      await eventually(async () => (stream.events as unknown as Ev[]).some((e) => e.notification.id === md.id), 10_000, "the stream's event");
      expect((stream.events as unknown as Ev[]).find((e) => e.notification.id === md.id)!.notification.display.bodyHtml).toBe(RENDERED);
      stream.dispose();
    });
  });
}
