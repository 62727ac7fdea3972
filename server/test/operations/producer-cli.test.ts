// `herald publish|update|resolve|expire|emit` as a hook runs them: the real binary in its own
// process, against a real server over HTTP, with the exit code telling the outcome.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gql } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { heraldRaw } from "../support/processes.ts";
import { providers } from "../support/providers.ts";

for (const provider of providers) {
  describe.skipIf(!provider.available)(`producer commands on ${provider.name}`, () => {
    let h: TestHerald;
    let ada: { id: string; token: string };
    let env: Record<string, string>;
    let dir: string;
    beforeAll(async () => {
      h = await startHerald(provider);
      ada = await h.newPerson("Ada");
      // The base URL, as an operator writes it; /graphql is found by the command.
      env = { HERALD_URL: h.url.replace(/\/graphql$/, ""), HERALD_PRODUCER_KEY: h.producerKey };
      dir = mkdtempSync(join(tmpdir(), "herald-cli-"));
    });
    afterAll(async () => {
      await h?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    const herald = async (args: string[], stdin?: string, extraEnv: Record<string, string> = {}) => {
      const r = await heraldRaw(args, { ...env, ...extraEnv }, stdin);
      return { code: r.code, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
    };
    const json = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;

    it("publishes from flags and revises the same key, printing the notification as JSON", async () => {
      const first = await herald(["publish", "--person", ada.id, "--key", "build:1", "--title", "Build failed", "--severity", "error", "--plugin", "ci"]);
      expect(first.code).toBe(0);
      expect(first.stderr).toBe("");
      expect(json(first.stdout)).toMatchObject({ key: "build:1", revision: 1, status: "PENDING", scope: "PERSON", severity: "ERROR", title: "Build failed" });

      const again = await herald(["publish", "--person", ada.id, "--key", "build:1", "--title", "Build failed twice", "--plugin", "ci"]);
      expect(again.code).toBe(0);
      expect(json(again.stdout)).toMatchObject({ id: json(first.stdout).id, revision: 2, title: "Build failed twice" });
    });

    it("takes the whole input from a file or stdin, flags overriding it, with HERALD_URL ending in /graphql", async () => {
      const input = { scope: "PERSON", personId: ada.id, key: "deploy", title: "Deploying", body: "v1.2", source: { plugin: "deployer", subsystem: "k8s" } };
      const file = join(dir, "input.json");
      writeFileSync(file, JSON.stringify(input));
      const [fromFile, fromStdin] = await Promise.all([
        herald(["publish", "--json", file], undefined, { HERALD_URL: h.url }),
        herald(["publish", "--json", "-", "--key", "deploy-2", "--title", "Deployed"], JSON.stringify(input)),
      ]);
      expect(fromFile.code).toBe(0);
      expect(json(fromFile.stdout)).toMatchObject({ key: "deploy", title: "Deploying", revision: 1 });
      expect(fromStdin.code).toBe(0);
      expect(json(fromStdin.stdout)).toMatchObject({ key: "deploy-2", title: "Deployed" });
    });

    it("exits 2 naming the field for input the server or the command refuses, and writes nothing", async () => {
      const results = await Promise.all([
        herald(["publish", "--person", ada.id, "--key", "v1", "--title", "   ", "--plugin", "ci"]), // the server's rule
        herald(["publish", "--person", ada.id, "--key", "v2", "--title", "t"]), // no plugin
        herald(["publish", "--person", ada.id, "--key", "v3", "--title", "t", "--plugin", "ci", "--severity", "loud"]), // not in the enum
        herald(["publish", "--json", "-"], "{ not json"),
        herald(["publish", "--person", ada.id, "--key", "v4", "--title", "t", "--plugin", "ci"], undefined, { HERALD_PRODUCER_KEY: "" }),
        herald(["resolve", "some-id", "--values", "{bad"]),
      ]);
      const fields = ["title", "source.plugin", "severity", "--json", "HERALD_PRODUCER_KEY", "--values"];
      results.forEach((result, i) => {
        expect({ i, code: result.code, stdout: result.stdout }).toEqual({ i, code: 2, stdout: "" });
        expect(result.stderr).toContain(`invalid ${fields[i]}:`);
      });
      const listed = await gql(h.url, ada.token, "{ notifications(first: 100) { edges { node { key } } } }");
      const keys = (listed.data.notifications.edges as { node: { key: string } }[]).map((e) => e.node.key);
      expect(keys.filter((k) => /^v\d$/.test(k))).toEqual([]);
    });

    it("names the field and the problem, never the value sent", async () => {
      const secret = "PRIVATE-7d1f";
      const input = { scope: "PERSON", personId: ada.id, key: "p1", title: "t", body: secret, source: { plugin: "ci" } };
      const results = await Promise.all([
        herald(["publish", "--json", "-"], JSON.stringify({ ...input, severity: secret })),
        herald(["publish", "--json", "-"], JSON.stringify({ ...input, title: 424242 })),
        herald(["publish", "--json", "-"], `{"body": "${secret}" "title": "t"}`),
        herald(["publish", "--json", "-"], `${secret}`),
        herald(["resolve", "some-id", "--values", `{"answer": ${secret}}`]),
        herald(["publish", "--person", ada.id, "--key", "p2", "--title", "t", "--plugin", "ci"], undefined, { HERALD_URL: `http://user:${secret}@[::1` }),
      ]);
      const expected = [
        "invalid severity: not a Severity value",
        "invalid title: not a valid String",
        "invalid --json: not valid JSON",
        "invalid --json: not valid JSON",
        "invalid --values: not valid JSON",
        "invalid HERALD_URL: not a URL",
      ];
      results.forEach((result, i) => {
        expect({ i, code: result.code }).toEqual({ i, code: 2 });
        expect(result.stderr).toContain(expected[i]);
        expect(result.stderr + result.stdout).not.toContain(secret);
        expect(result.stderr).not.toContain("424242");
      });
    });

    it("updates, resolves and expires, exiting 3 on a transition the lifecycle refuses and 1 for a missing notification", async () => {
      const published = json((await herald(["publish", "--person", ada.id, "--key", "job", "--title", "Job running", "--plugin", "ci"])).stdout);
      const id = published.id as string;

      const updated = await herald(["update", id, "--title", "Job 50%", "--body", "halfway"]);
      expect(updated.code).toBe(0);
      expect(json(updated.stdout)).toMatchObject({ id, revision: 2, title: "Job 50%" });

      const resolved = await herald(["resolve", id, "--action-id", "done", "--values", '{"ok":true}']);
      expect(resolved.code).toBe(0);
      expect(json(resolved.stdout)).toMatchObject({ id, status: "RESOLVED" });
      expect((await herald(["resolve", id])).code).toBe(0); // idempotent

      const [expireResolved, updateResolved, missing] = await Promise.all([
        herald(["expire", id, "--reason", "too late"]),
        herald(["update", id, "--title", "again"]),
        herald(["expire", "no-such-notification"]),
      ]);
      expect(expireResolved.code).toBe(3);
      expect(expireResolved.stderr).toContain("NotificationTransitionError");
      expect(expireResolved.stderr).toContain("RESOLVED");
      expect(updateResolved.code).toBe(3);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain("NotFoundError");

      const other = json((await herald(["publish", "--person", ada.id, "--key", "stale", "--title", "Stale", "--plugin", "ci"])).stdout);
      const expired = await herald(["expire", other.id as string, "--json", "-"], JSON.stringify({ reason: "superseded" }));
      expect(expired.code).toBe(0);
      expect(json(expired.stdout)).toMatchObject({ status: "EXPIRED" });
    });

    it("exits 3 when the operation occurrence does not match", async () => {
      const input = { scope: "PERSON", personId: ada.id, key: "op", title: "Working", source: { plugin: "ci" }, operation: { id: "op-1" } };
      const published = json((await herald(["publish", "--json", "-"], JSON.stringify(input))).stdout);
      const mismatch = await herald(["resolve", published.id as string, "--operation-id", "op-2"]);
      expect(mismatch.code).toBe(3);
      expect(mismatch.stderr).toContain("OperationMismatchError");
    });

    it("emits an event that notifies the engagement's operator, once per idempotency key, and names the field it refuses", async () => {
      const created = await gql(h.url, h.producerKey, `mutation($o: ID!) { createEngagement(input: { name: "Facade", operatorPersonId: $o }) { id } }`, {
        o: ada.id,
      });
      const engagement = created.data.createEngagement.id as string;

      const emitted = await herald([
        "emit",
        "--type",
        "render.produced",
        "--engagement",
        engagement,
        "--payload",
        '{"id":"render-1","name":"the east facade"}',
      ]);
      expect(emitted.code).toBe(0);
      const result = json(emitted.stdout);
      expect(result).toMatchObject({ __typename: "EmitEventSuccess", type: "render.produced", duplicate: false });
      expect(result.notifications).toEqual([expect.objectContaining({ personId: ada.id })]);

      const input = JSON.stringify({ type: "render.produced", engagementId: engagement, payload: { id: "render-2" }, idempotencyKey: "hook-run-7" });
      const first = await herald(["emit", "--json", "-"], input);
      const again = await herald(["emit", "--json", "-"], input);
      expect([first.code, again.code]).toEqual([0, 0]);
      expect(json(again.stdout)).toMatchObject({ duplicate: true, eventId: json(first.stdout).eventId });

      const [noId, noType] = await Promise.all([
        herald(["emit", "--type", "render.produced", "--engagement", engagement, "--payload", '{"name":"no id"}']),
        herald(["emit", "--engagement", engagement]),
      ]);
      expect(noId.code).toBe(2);
      expect(noId.stderr).toContain("invalid payload.id:");
      expect(noType.code).toBe(2);
      expect(noType.stderr).toContain("invalid type:");
    });

    it("exits 1 for a refused key or an unreachable server", async () => {
      const args = ["publish", "--person", ada.id, "--key", "k", "--title", "t", "--plugin", "ci"];
      const [refused, unreachable] = await Promise.all([
        herald(args, undefined, { HERALD_PRODUCER_KEY: "herald_pk_not-a-real-key" }),
        herald(args, undefined, { HERALD_URL: "http://127.0.0.1:9/" }),
      ]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("UNAUTHENTICATED");
      expect(unreachable.code).toBe(1);
      expect(unreachable.stderr).toContain("cannot reach Herald");
    });
  });
}
