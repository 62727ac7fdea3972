// Producer keys bound to one plugin (`herald key create --plugin P`), over real HTTP on every
// storage provider: the key publishes and changes only P's notifications, reads and acknowledges
// only P's invocations, still reports exchanges and emits events, and cannot create persons or
// mint person credentials. Another plugin's record answers as if it did not exist. The /api/v1
// JSON API, generated from the same schema, refuses the same things.
import { heraldCli } from "@herald/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, gql, resultFields } from "../support/graphql.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { expectRefusal, leaks, postJson } from "./wire.ts";

type Vars = Record<string, unknown>;

const PUBLISH = `mutation($input: PublishNotificationInput!) { publishNotification(input: $input) { ${resultFields("publish")} } }`;
const UPDATE = `mutation($id: ID!, $patch: NotificationPatch!) {
  updateNotification(id: $id, patch: $patch) { ${resultFields("publish")} } }`;
const UPDATE_BY_KEY = `mutation($target: NotificationPatchTarget!, $patch: NotificationPatch!) {
  updateNotificationByKey(target: $target, patch: $patch) { ${resultFields("publish")} } }`;
const RESOLVE = `mutation($id: ID!) { resolveNotification(id: $id) { ${resultFields("resolve")} } }`;
const EXPIRE = `mutation($id: ID!) { expireNotification(id: $id) { ${resultFields("resolve")} } }`;
const READ = `query($id: ID!) { notification(id: $id) { id revision status title source { plugin } } }`;
const INVOKE = `mutation($id: ID!) { invokeNotificationAction(id: $id, actionId: "run") { id plugin } }`;
const PAGE = `query($plugin: String) { actionInvocations(plugin: $plugin, first: 100) { items { id plugin } } }`;
const ACK = `mutation($id: ID!) { acknowledgeActionInvocation(id: $id, outcome: ACKNOWLEDGED) {
  __typename ... on ActionInvocation { id state } ... on UserError { message } } }`;

for (const provider of providers) {
  describe.skipIf(!provider.available)(`plugin-bound producer keys on ${provider.name}`, () => {
    let h: TestHerald;
    let ada: { id: string; token: string };
    /** Bound to plugin "builds", made with the CLI as an operator would. */
    let bound: string;
    /** Another plugin's notification, published with the admin key. */
    let foreign: { id: string; key: string };

    const as = (key: string, query: string, variables?: Vars) => gql(h.url, key, query, variables);
    const input = (extra: Vars = {}) => ({ scope: "PERSON", personId: ada.id, key: "b:1", title: "Build ran", source: { plugin: "builds" }, ...extra });
    const readAsAda = async (id: string) => (await as(ada.token, READ, { id })).data.notification;

    beforeAll(async () => {
      h = await startHerald(provider);
      ada = await h.newPerson("Ada");
      const cli = heraldCli({ DATABASE_URL: h.databaseUrl });
      const created = await cli.run("key", "create", "--name", "ci hook", "--plugin", "builds");
      expect(created.lines[0]).toMatch(/^producer key \S+ bound to plugin builds$/);
      bound = created.lastLine;
      expect(bound).toMatch(/^herald_pk_/);
      const published = await h.publish({
        scope: "PERSON",
        personId: ada.id,
        key: "deploy:1",
        title: "Deploy",
        source: { plugin: "deploys" },
        requestId: "req-1",
        retention: { policy: "UNTIL_REQUEST_COMPLETE", requestId: "req-1" },
        actions: [{ kind: "RUN_ACTION", id: "run", label: "Run", actionId: "deploy.run" }],
      });
      foreign = { id: published.id, key: "deploy:1" };
    }, 60_000);
    afterAll(async () => h?.close());

    it("publishes its own plugin's notifications and refuses another plugin in input, writing nothing", async () => {
      const own = await as(bound, PUBLISH, { input: input() });
      expect(own.data.publishNotification).toMatchObject({ __typename: "Notification", source: { plugin: "builds" }, revision: 1 });
      const other = await as(bound, PUBLISH, { input: input({ key: "b:other", source: { plugin: "deploys" } }) });
      expect(other.data.publishNotification).toMatchObject({ __typename: "ValidationError", field: "source.plugin" });
      const keys = await as(ada.token, `{ notifications(first: 50) { edges { node { key } } } }`);
      expect(keys.data.notifications.edges.map((e: any) => e.node.key)).not.toContain("b:other");
    });

    it("cannot take over another plugin's active key by publishing over it, and learns nothing of who holds it", async () => {
      const taken = await as(bound, PUBLISH, { input: input({ key: foreign.key }) });
      expect(taken.data.publishNotification).toMatchObject({ __typename: "ValidationError", field: "key" });
      // Neither the holder's plugin nor that a plugin holds it: a neutral refusal of this key.
      expect(taken.data.publishNotification.message).not.toMatch(/plugin|deploys|belongs|owned/i);
      expect(JSON.stringify(taken)).not.toMatch(/deploys/);
      expect(await readAsAda(foreign.id)).toMatchObject({ revision: 1, title: "Deploy", source: { plugin: "deploys" } });
    });

    it("answers another plugin's record by id or key as if it did not exist, and changes nothing", async () => {
      const byId = await as(bound, UPDATE, { id: foreign.id, patch: { title: "hijacked" } });
      const byKey = await as(bound, UPDATE_BY_KEY, { target: { scope: "PERSON", personId: ada.id, key: foreign.key }, patch: { title: "hijacked" } });
      const missing = await as(bound, UPDATE, { id: "no-such-notification", patch: { title: "x" } });
      expect(byId.data.updateNotification).toEqual(missing.data.updateNotification);
      expect(byKey.data.updateNotificationByKey).toMatchObject({ __typename: "NotFoundError" });
      expect(missing.data.updateNotification).toMatchObject({ __typename: "NotFoundError" });
      for (const mutation of [RESOLVE, EXPIRE]) {
        const r = await as(bound, mutation, { id: foreign.id });
        expect(Object.values(r.data)[0]).toMatchObject({ __typename: "NotFoundError" });
      }
      expect(await readAsAda(foreign.id)).toMatchObject({ revision: 1, status: "PENDING", title: "Deploy" });
    });

    it("starts its own occurrence of a key by patch, never copying another plugin's ended one", async () => {
      const theirs = await h.publish({
        scope: "PERSON",
        personId: ada.id,
        key: "shared:ended",
        title: "Deploy secret",
        body: "token rotated",
        source: { plugin: "deploys" },
      });
      await as(h.producerKey, RESOLVE, { id: theirs.id });
      const target = { scope: "PERSON", personId: ada.id, key: "shared:ended" };
      const mine = await as(bound, UPDATE_BY_KEY, { target, patch: { body: "copied?" } });
      expect(mine.data.updateNotificationByKey).toMatchObject({ __typename: "NotFoundError" });
      const started = await as(bound, UPDATE_BY_KEY, { target, patch: { title: "Build" } });
      expect(started.data.updateNotificationByKey).toMatchObject({
        __typename: "Notification",
        revision: 1,
        title: "Build",
        body: "",
        source: { plugin: "builds" },
      });
      expect(JSON.stringify(started)).not.toMatch(/secret|rotated/);
    });

    it("cannot move its own record to another plugin by a patch", async () => {
      const own = (await as(bound, PUBLISH, { input: input({ key: "b:patch" }) })).data.publishNotification;
      const moved = await as(bound, UPDATE, { id: own.id, patch: { source: { plugin: "deploys" } } });
      expect(moved.data.updateNotification).toMatchObject({ __typename: "ValidationError", field: "patch.source.plugin" });
      const kept = await as(bound, UPDATE, { id: own.id, patch: { title: "Build ran again" } });
      expect(kept.data.updateNotification).toMatchObject({ __typename: "Notification", revision: 2, source: { plugin: "builds" } });
    });

    it("completes a request for its own plugin's records only", async () => {
      await as(bound, PUBLISH, { input: input({ key: "b:req", retention: { policy: "UNTIL_REQUEST_COMPLETE", requestId: "req-1" } }) });
      const completed = await as(bound, `mutation { completeRequest(requestId: "req-1") }`);
      expect(completed.data.completeRequest).toBe(1);
      expect(await readAsAda(foreign.id)).toMatchObject({ status: "PENDING" });
    });

    it("reads and acknowledges only its own plugin's invocations", async () => {
      const own = (
        await as(bound, PUBLISH, { input: input({ key: "b:act", actions: [{ kind: "RUN_ACTION", id: "run", label: "Run", actionId: "build.run" }] }) })
      ).data.publishNotification;
      const mine = (await as(ada.token, INVOKE, { id: own.id })).data.invokeNotificationAction;
      const theirs = (await as(ada.token, INVOKE, { id: foreign.id })).data.invokeNotificationAction;
      const page = await as(bound, PAGE, {});
      expect(page.data.actionInvocations.items).toEqual([{ id: mine.id, plugin: "builds" }]);
      const asked = await as(bound, PAGE, { plugin: "deploys" });
      expect(errorCode(asked)).toBe("FORBIDDEN");
      expect(JSON.stringify(asked)).not.toContain(theirs.id);
      const ackTheirs = await as(bound, ACK, { id: theirs.id });
      expect(ackTheirs.data.acknowledgeActionInvocation.__typename).toBe("NotFoundError");
      const ackMine = await as(bound, ACK, { id: mine.id });
      expect(ackMine.data.acknowledgeActionInvocation).toMatchObject({ __typename: "ActionInvocation", state: "ACKNOWLEDGED" });
      // The admin key still sees every plugin's, the foreign one still PENDING.
      const all = await as(h.producerKey, PAGE, {});
      expect(all.data.actionInvocations.items.map((i: any) => i.id)).toContain(theirs.id);
    });

    it("reports exchanges of its own harness only (creating the session for the person) and emits events", async () => {
      const REPORT = `mutation($input: ReportExchangeInput!) { reportExchange(input: $input) { __typename ... on ReportedExchange { duplicate } ... on ValidationError { field } ... on UserError { message } } }`;
      const SESSION = `query($h: String!, $s: String!) { session(harness: $h, sessionId: $s) { id } }`;
      const exchange = (harness: string) => ({
        harness,
        sessionId: "s-bound",
        completionId: "c-1",
        cwd: "/src",
        userText: "hi",
        assistantText: "done",
        personId: ada.id,
      });
      // The exchange's notification names the harness as its plugin: a key bound to "builds" may not publish as "pi".
      const foreignHarness = await as(bound, REPORT, { input: exchange("pi") });
      expect(foreignHarness.data.reportExchange).toMatchObject({ __typename: "ValidationError", field: "harness" });
      expect((await as(h.producerKey, SESSION, { h: "pi", s: "s-bound" })).data.session).toBeNull();
      const cli = heraldCli({ DATABASE_URL: h.databaseUrl });
      const piKey = (await cli.run("key", "create", "--name", "pi extension", "--plugin", "pi")).lastLine;
      const own = await as(piKey, REPORT, { input: exchange("pi") });
      expect(own.data.reportExchange).toEqual({ __typename: "ReportedExchange", duplicate: false });
      const event = await as(
        bound,
        `mutation { emitEvent(input: { type: "build.done", idempotencyKey: "e-1" }) { __typename ... on EmitEventSuccess { duplicate } } }`,
      );
      expect(event.data.emitEvent).toEqual({ __typename: "EmitEventSuccess", duplicate: false });
    });

    it("sees only its own harness's sessions: another harness's session answers exactly as an absent one", async () => {
      const SESSION = `query($h: String!, $s: String!) { session(harness: $h, sessionId: $s) { harness sessionId label completionId sourceGeneration labelGeneration } }`;
      const cli = heraldCli({ DATABASE_URL: h.databaseUrl });
      const codexKey = (await cli.run("key", "create", "--name", "codex notify", "--plugin", "codex")).lastLine;
      const report = {
        harness: "codex",
        sessionId: "s-probe",
        completionId: "c-1",
        cwd: "/src/secret-project",
        userText: "ship it",
        assistantText: "shipped",
        personId: ada.id,
      };
      const reported = await as(codexKey, `mutation($input: ReportExchangeInput!) { reportExchange(input: $input) { __typename } }`, { input: report });
      expect(reported.data.reportExchange.__typename).toBe("ReportedExchange");
      // Its own harness's key and the admin key see it.
      expect((await as(codexKey, SESSION, { h: "codex", s: "s-probe" })).data.session).toMatchObject({
        harness: "codex",
        sessionId: "s-probe",
        sourceGeneration: "1",
      });
      expect((await as(h.producerKey, SESSION, { h: "codex", s: "s-probe" })).data.session).toMatchObject({ sessionId: "s-probe" });
      // A key bound to another plugin: the same answer as for a session that does not exist.
      const present = await as(bound, SESSION, { h: "codex", s: "s-probe" });
      const absent = await as(bound, SESSION, { h: "codex", s: "s-never-reported" });
      expect(present).toEqual(absent);
      expect(present.data).toEqual({ session: null });
    });

    it("can neither address nor read another harness's session through notifications: it answers as an absent one", async () => {
      const SESSION_FIELDS = "session { id harness sessionId label ownerPersonId }";
      const created = await as(h.producerKey, `mutation($input: CreateSessionInput!) { createSession(input: $input) { id } }`, {
        input: { harness: "codex", sessionId: "s-other-harness", ownerPersonId: ada.id },
      });
      const otherSession = created.data.createSession.id as string;
      // Publishing into it: exactly the refusal of a session id that does not exist.
      const session = (sessionId: string) => input({ scope: "SESSION", personId: null, sessionId, key: "b:session" });
      const into = await as(bound, PUBLISH, { input: session(otherSession) });
      const absent = await as(bound, PUBLISH, { input: session("no-such-session") });
      expect(into.data.publishNotification).toMatchObject({ __typename: "ValidationError", field: "sessionId" });
      expect(into).toEqual(absent);
      const byKey = await as(bound, UPDATE_BY_KEY, { target: { scope: "SESSION", sessionId: otherSession, key: "b:session" }, patch: { title: "Into it" } });
      const byKeyAbsent = await as(bound, UPDATE_BY_KEY, {
        target: { scope: "SESSION", sessionId: "no-such-session", key: "b:session" },
        patch: { title: "Into it" },
      });
      expect(byKey).toEqual(byKeyAbsent);
      // Its own plugin's record that an admin key put in that session: the record, but no session.
      const placed = await as(h.producerKey, PUBLISH, { input: input({ scope: "SESSION", personId: null, sessionId: otherSession, key: "b:placed" }) });
      const id = placed.data.publishNotification.id as string;
      const read = await as(bound, `query($id: ID!) { notification(id: $id) { id ${SESSION_FIELDS} } }`, { id });
      expect(read.data.notification).toEqual({ id, session: null });
      const revised = await as(bound, UPDATE, { id, patch: { title: "Build ran again" } });
      expect(revised.data.updateNotification.__typename).toBe("Notification");
      expect(JSON.stringify(revised)).not.toMatch(/s-other-harness|codex/);
      // Ada, whose session it is, sees it.
      const adas = await as(ada.token, `query($id: ID!) { notification(id: $id) { ${SESSION_FIELDS} } }`, { id });
      expect(adas.data.notification.session).toMatchObject({ id: otherSession, harness: "codex", sessionId: "s-other-harness" });
    });

    it("cannot create persons, sessions, engagements or facts, nor mint person credentials (FORBIDDEN, nothing written)", async () => {
      const before = await as(h.producerKey, `query($id: ID!) { personPreferences(personId: $id) { quietMode } }`, { id: ada.id });
      const refused: [string, Vars][] = [
        [`mutation { createPerson(input: { name: "Mallory" }) { id } }`, {}],
        [`mutation($id: ID!) { issuePersonToken(personId: $id) { token } }`, { id: ada.id }],
        [`mutation($id: ID!) { issueSignInCode(personId: $id) { code } }`, { id: ada.id }],
        [`mutation($id: ID!) { createSession(input: { harness: "pi", sessionId: "s-x", ownerPersonId: $id }) { id } }`, { id: ada.id }],
        [`mutation($id: ID!) { createEngagement(input: { name: "E", operatorPersonId: $id }) { id } }`, { id: ada.id }],
        [`mutation($id: ID!) { rememberFact(input: { personId: $id, content: "likes tea" }) { id } }`, { id: ada.id }],
        [`mutation($id: ID!) { setPersonQuietMode(personId: $id, enabled: true) { quietMode } }`, { id: ada.id }],
        [`query($id: ID!) { personPreferences(personId: $id) { quietMode } }`, { id: ada.id }],
      ];
      for (const [query, variables] of refused) {
        const r = await as(bound, query, variables);
        expect(errorCode(r), query).toBe("FORBIDDEN");
        expect(JSON.stringify(r)).not.toMatch(/herald_pt_|herald_sc_/);
      }
      const after = await as(h.producerKey, `query($id: ID!) { personPreferences(personId: $id) { quietMode } }`, { id: ada.id });
      expect(after.data).toEqual(before.data);
      const session = await as(h.producerKey, `{ session(harness: "pi", sessionId: "s-x") { id } }`);
      expect(session.data.session).toBeNull();
    });

    it("is held to the same rules on the /api/v1 JSON API", async () => {
      const base = h.url.replace(/\/graphql$/, "");
      const api = (operation: string, body: unknown) => postJson(`${base}/api/v1/${operation}`, body, { token: bound });
      expectRefusal(await api("create-person", { input: { name: "Mallory" } }), 403, "FORBIDDEN");
      expectRefusal(await api("set-person-quiet-mode", { personId: ada.id, enabled: true }), 403, "FORBIDDEN");
      const other = await api("publish-notification", { input: input({ key: "b:api", source: { plugin: "deploys" } }) });
      expect(other.status).toBe(422);
      expect(other.json).toMatchObject({ __typename: "ValidationError", field: "source.plugin" });
      const expired = await api("expire-notification", { id: foreign.id });
      expect(expired.status).toBe(404);
      for (const r of [other, expired]) expect(r.text).not.toMatch(leaks);
      const own = await api("publish-notification", { input: input({ key: "b:api" }) });
      expect(own.status).toBe(200);
      // The refused expire changed nothing (Ada's own reading state may have moved: she acted on it above).
      const after = await readAsAda(foreign.id);
      expect(after.revision).toBe(1);
      expect(after.status).not.toBe("EXPIRED");
    });

    it("leaves an admin key (no --plugin) able to do all of it", async () => {
      const cli = heraldCli({ DATABASE_URL: h.databaseUrl });
      const created = await cli.run("key", "create", "--name", "ops");
      expect(created.lines[0]).toMatch(/^admin producer key \S+$/);
      const person = await as(created.lastLine, `mutation { createPerson(input: { name: "Grace" }) { id } }`);
      expect(person.data.createPerson.id).toEqual(expect.any(String));
      const changed = await as(created.lastLine, UPDATE, { id: foreign.id, patch: { title: "Deploy (admin)" } });
      expect(changed.data.updateNotification).toMatchObject({ __typename: "Notification", revision: 2 });
    }, 30_000);
  });
}
