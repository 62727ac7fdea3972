// The SDK's reader controls against a real server: preferences, "Clear all", filters by
// severity and plugin, and producer data read back through dataOf.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataOf, HeraldValidationError, type PersonClient, type ProducerClient } from "../src/index.ts";
import { startClients, type TestClients, type TestServer } from "./support/server.ts";

interface BuildData {
  build: number;
}
const isBuildData = (v: unknown): v is BuildData => typeof v === "object" && v !== null && typeof (v as BuildData).build === "number";

describe("reader controls through the SDK", () => {
  let clients: TestClients;
  let server: TestServer;
  let producer: ProducerClient;
  let ada: PersonClient;

  beforeAll(async () => {
    clients = await startClients();
    ({ server, producer, ada } = clients);
  });
  afterAll(async () => clients?.close());

  const publish = async (key: string, extra: Record<string, unknown> = {}) => {
    const r = await producer.publish({ scope: "PERSON", personId: server.person.id, key, title: key, source: { plugin: "sdk" }, ...extra });
    if (!r.ok) throw new Error(r.message);
    return r.notification;
  };

  it("reads and changes preferences, and reports a bad time zone as a typed error", async () => {
    const set = await ada.updatePreferences({
      mutedPlugins: ["noisy"],
      severityFloor: "WARNING",
      quietHours: { start: "22:00", end: "07:00", timeZone: "Europe/Berlin" },
    });
    expect(set).toMatchObject({
      mutedPlugins: ["noisy"],
      severityFloor: "WARNING",
      quietHours: { start: "22:00", end: "07:00", timeZone: "Europe/Berlin", allowErrors: true },
    });
    expect(await ada.readerPreferences()).toEqual(set);
    const error = await ada.updatePreferences({ quietHours: { start: "22:00", end: "07:00", timeZone: "Atlantis/Capital" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HeraldValidationError);
    expect((error as HeraldValidationError).field).toBe("input.quietHours.timeZone");
    const cleared = await ada.updatePreferences({ mutedPlugins: [], severityFloor: "INFO", quietHours: null });
    expect(cleared).toMatchObject({ mutedPlugins: [], severityFloor: "INFO", quietHours: null });
  });

  it("clears what was seen, filters by severity and plugin, and types producer data", async () => {
    const a = await publish("clear-a", { severity: "ERROR", data: { build: 7 } });
    await publish("clear-b", { data: "not a build" });
    await ada.markSeen([a.id]);
    const errors = await ada.page({ filter: { severities: ["ERROR"], plugins: ["sdk"] } });
    expect(errors.items.map((n) => n.id)).toContain(a.id);
    expect(errors.items.every((n) => n.severity === "ERROR")).toBe(true);
    const got = errors.items.find((n) => n.id === a.id)!;
    expect(dataOf(got, isBuildData)).toEqual({ build: 7 });
    const other = (await ada.page({ filter: { plugins: ["sdk"] } })).items.find((n) => n.key === "clear-b")!;
    expect(dataOf(other, isBuildData)).toBeNull();
    expect(dataOf<string>(other)).toBe("not a build");
    expect(await ada.dismissAll({ plugins: ["sdk"] })).toBe(1);
    expect((await ada.get(a.id))!.status).toBe("DISMISSED");
    expect((await ada.get(other.id))!.status).not.toBe("DISMISSED");
  });
});
