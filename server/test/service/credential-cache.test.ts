// Credentials are remembered for a moment after a look-up, and a revocation still bites at once:
// the service's own revoke, a revocation message from another instance on the bus, and the store
// check all evict; only a revocation nobody announced waits out the short cache lifetime.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InMemoryEventBus } from "../../src/events/bus.ts";
import { AuthService } from "../../src/service/auth-service.ts";
import { CREDENTIAL_CACHE_TTL_MS } from "../../src/service/credential-cache.ts";
import { CredentialStore, SignInCodeStore } from "../../src/storage/persons/credential-store.ts";
import { DirectoryStore } from "../../src/storage/persons/directory-store.ts";
import { startHerald, type TestHerald } from "../support/herald.ts";
import { providers } from "../support/providers.ts";
import { storeOf } from "../support/store.ts";

const sqlite = providers.find((p) => p.name === "sqlite")!;

describe("credential cache", () => {
  let h: TestHerald;
  let bus: InMemoryEventBus;
  let auth: AuthService;
  /** The service's clock, moved by hand: the cache ages by it. */
  let now = Date.now();
  /** Revokes in the store only, as another process would: no message, no eviction. */
  let revokeSilently: (id: string) => Promise<void>;

  beforeAll(async () => {
    h = await startHerald(sqlite);
    const probe = storeOf(h.herald.database);
    bus = new InMemoryEventBus();
    auth = new AuthService(new CredentialStore(h.herald.database), new SignInCodeStore(h.herald.database), new DirectoryStore(h.herald.database), bus, {
      now: () => new Date(now),
    });
    revokeSilently = async (id) => {
      expect(
        await probe.execute(
          probe.build
            .updateTable("Credential")
            .set({ revokedAt: probe.time(new Date()) })
            .where("id", "=", id),
        ),
      ).toBe(1);
    };
  });
  afterAll(async () => h?.close());

  const fresh = async () => {
    const key = await auth.issueProducerKey("cached");
    return { id: key.id, header: `Bearer ${key.secret}` };
  };

  it("carries a key's bound plugin through the cache, so a cached look-up keeps its limits", async () => {
    const bound = await auth.issueProducerKey("bound", "builds");
    const header = `Bearer ${bound.secret}`;
    expect(await auth.authenticate(header)).toMatchObject({ kind: "producer", credentialId: bound.id, plugin: "builds" });
    // The second answer comes from memory and must not have lost the binding.
    expect(await auth.authenticate(header)).toMatchObject({ credentialId: bound.id, plugin: "builds" });
    expect(await auth.authenticate((await fresh()).header)).toMatchObject({ plugin: null });
  });

  it("serves a repeat look-up from memory until the entry ages out", async () => {
    const key = await fresh();
    expect(await auth.authenticate(key.header)).toMatchObject({ kind: "producer", credentialId: key.id });
    await revokeSilently(key.id);
    // Remembered: the store's revocation is not seen yet (what `herald revoke` without a bus costs)...
    expect(await auth.authenticate(key.header)).toMatchObject({ credentialId: key.id });
    // ...and no longer than the cache lifetime.
    now += CREDENTIAL_CACHE_TTL_MS - 1;
    expect(await auth.authenticate(key.header)).toMatchObject({ credentialId: key.id });
    now += 1;
    await expect(auth.authenticate(key.header)).rejects.toThrow(/unknown or revoked/);
  });

  it("a revocation through the service is refused on the next request", async () => {
    const key = await fresh();
    await auth.authenticate(key.header);
    expect(await auth.revoke(key.id)).toBe(1);
    await expect(auth.authenticate(key.header)).rejects.toThrow(/unknown or revoked/);
  });

  it("a revocation message from another instance evicts at once", async () => {
    const key = await fresh();
    const other = await fresh();
    await auth.authenticate(key.header);
    await auth.authenticate(other.header);
    await revokeSilently(key.id);
    bus.publish({ kind: "revoked", credentialIds: [key.id] });
    await expect(auth.authenticate(key.header)).rejects.toThrow(/unknown or revoked/);
    // Only the revoked credential was evicted; the other is still remembered (revoked silently, it still passes).
    await revokeSilently(other.id);
    expect(await auth.authenticate(other.header)).toMatchObject({ credentialId: other.id });
  });

  it("the store check that ends streams evicts what it finds revoked", async () => {
    const key = await fresh();
    await auth.authenticate(key.header);
    await revokeSilently(key.id);
    expect(await auth.revokedAmong([key.id])).toEqual([key.id]);
    await expect(auth.authenticate(key.header)).rejects.toThrow(/unknown or revoked/);
  });

  it("never remembers an unknown or revoked credential", async () => {
    const key = await fresh();
    await auth.revoke(key.id);
    await expect(auth.authenticate(key.header)).rejects.toThrow(/unknown or revoked/);
    await expect(auth.authenticate("Bearer herald_pk_nothing")).rejects.toThrow(/unknown or revoked/);
  });
});
