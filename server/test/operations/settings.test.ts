// Every HERALD_* setting the server reads (src/config.ts): its default, a value it parses, and
// values it refuses with a message naming the setting. A row per setting, and a check that no
// setting of config.ts lacks one. Then one start with a bad value: the server says which setting
// and does not start (no ready line, no store created).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createTempDir } from "@herald/testkit";
import { describe, expect, it } from "vitest";
import { loadConfig, tuningFrom } from "@herald/server/config";
import { heraldCommand } from "../support/processes.ts";

interface Row {
  /** The parsed default, as loadConfig gives it (undefined: unset). */
  fallback: unknown;
  /** A value as an operator writes it, and what it parses to. */
  good: [string, unknown];
  bad: string[];
  /** Settings that are only valid together with this one (a key pair). */
  alongside?: Record<string, string>;
}

const NOT_A_NUMBER = "ten";
const row = (fallback: unknown, good: [string, unknown], bad: string[]): Row => ({ fallback, good, bad });
const count = (fallback: number, min: number, max?: number): Row =>
  row(fallback, [String(min + 1), min + 1], [NOT_A_NUMBER, String(min - 1), "1.5", ...(max === undefined ? [] : [String(max + 1)])]);

const settings: Record<string, Row> = {
  HERALD_SSE_HEARTBEAT_MS: count(15_000, 100),
  HERALD_SSE_BUFFER_BYTES: count(1024 * 1024, 1_024),
  HERALD_STREAM_QUEUE: count(1_000, 10),
  HERALD_SNOOZE_INTERVAL_MS: count(1_000, 10),
  HERALD_QUIET_HOURS_CHECK_MS: count(30_000, 10),
  HERALD_FEED_POLL_MS: count(2_000, 10),
  HERALD_MAX_BODY_BYTES: count(256 * 1024, 1_024),
  HERALD_SSE_RESERVATION_TTL_MS: count(30_000, 100),
  HERALD_SSE_RESERVATIONS_PER_CREDENTIAL: count(10, 1),
  HERALD_CORS_ORIGINS: row("", ["https://a.example,https://b.example", "https://a.example,https://b.example"], []),
  HERALD_GRAPHIQL: row(undefined, ["off", "off"], ["maybe"]),
  HERALD_MAX_STREAMS_PER_CREDENTIAL: count(16, 1),
  HERALD_REVOCATION_CHECK_MS: count(2_000, 10),
  HERALD_RATE_LIMIT_POINTS: count(3_000, 1),
  HERALD_RATE_LIMIT_WINDOW_S: count(60, 1),
  HERALD_TRUSTED_PROXIES: row("", ["127.0.0.1,10.0.0.0/8", "127.0.0.1,10.0.0.0/8"], ["10.0.0.0/33", "proxy.example"]),
  HERALD_METRICS_TOKEN: row(undefined, ["0123456789abcdef", "0123456789abcdef"], ["short"]),
  HERALD_LABELER_URL: row(undefined, ["http://127.0.0.1:11434/v1", "http://127.0.0.1:11434/v1"], ["not a url"]),
  HERALD_LABELER_MODEL: row("gpt-4o-mini", ["llama3", "llama3"], []),
  HERALD_LABELER_KEY: row(undefined, ["sk-local", "sk-local"], []),
  HERALD_LABELER_TIMEOUT_MS: count(10_000, 100, 120_000),
  HERALD_SCAN_INTERVAL_MS: count(300_000, 1_000),
  HERALD_DATE_LEAD_DAYS: count(7, 0, 366),
  HERALD_TIME_ZONE: row(undefined, ["Europe/Berlin", "Europe/Berlin"], ["Mars/Olympus"]),
  HERALD_STALE_ENGAGEMENT_DAYS: count(14, 1, 3_650),
  HERALD_HISTORY_LIMIT: count(200, 0),
  HERALD_EVENT_RETENTION_HOURS: row(168, ["0.5", 0.5], [NOT_A_NUMBER, "-1"]),
  HERALD_HISTORY_INTERVAL_MS: count(60_000, 100),
  HERALD_INVOCATION_RETENTION_HOURS: row(168, ["24", 24], [NOT_A_NUMBER, "-1"]),
  HERALD_ASSET_DOWNLOADS_PER_CREDENTIAL: count(4, 1),
  HERALD_ASSET_PACED_BYTES_PER_SECOND: count(8 * 1024 * 1024, 0),
  HERALD_ASSET_MAX_BYTES: count(10 * 1024 * 1024, 1_024, 1024 * 1024 * 1024),
  HERALD_ASSET_GRACE_MS: count(60 * 60 * 1000, 0),
  HERALD_ASSET_DIR: row(undefined, ["/var/lib/herald/assets", "/var/lib/herald/assets"], []),
  HERALD_ASSET_COLLECT_INTERVAL_MS: count(10 * 60 * 1000, 1_000),
  HERALD_INSTANCE_HEARTBEAT_SECONDS: row(15, ["20", 20], [NOT_A_NUMBER, "0", "3601", "1.5"]),
  HERALD_INSTANCE_GRACE_SECONDS: row(60, ["90", 90], [NOT_A_NUMBER, "1", "86401", "20"]),
  HERALD_OTEL: row(undefined, ["on", "on"], ["yes"]),
  HERALD_DASHBOARD_URL: row(undefined, ["https://dash.example/herald/", "https://dash.example/herald"], ["dash.example", "ftp://dash.example"]),
  HERALD_LOG_FORMAT: row(undefined, ["pretty", "pretty"], ["color"]),
  HERALD_SQLITE_BUSY_MS: count(10_000, 0),
  HERALD_PUBLIC_URL: row(undefined, ["https://herald.example/", "https://herald.example"], ["herald.example", "ftp://herald.example"]),
  HERALD_VAPID_SUBJECT: row("mailto:herald@localhost", ["https://herald.example/contact", "https://herald.example/contact"], ["herald@example.com"]),
  // The pair is set together or not at all: each is parsed beside the other, and alone it is refused.
  HERALD_VAPID_PUBLIC_KEY: {
    ...row(undefined, ["BPublicKeyBase64url", "BPublicKeyBase64url"], []),
    alongside: { HERALD_VAPID_PRIVATE_KEY: "privateKeyBase64url" },
  },
  HERALD_VAPID_PRIVATE_KEY: {
    ...row(undefined, ["privateKeyBase64url", "privateKeyBase64url"], []),
    alongside: { HERALD_VAPID_PUBLIC_KEY: "BPublicKeyBase64url" },
  },
  HERALD_CHANNEL_ALLOW_HOSTS: row("", ["push.test,10.0.0.5", "push.test,10.0.0.5"], []),
  HERALD_DELIVERY_MAX_ATTEMPTS: count(8, 1, 50),
  HERALD_DELIVERY_RETRY_BASE_MS: count(2_000, 1),
  HERALD_DELIVERY_POLL_MS: count(1_000, 10),
  HERALD_DELIVERY_TIMEOUT_MS: count(10_000, 100, 120_000),
  HERALD_DELIVERY_CONCURRENCY: count(32, 1, 1_000),
};

/** The setting names config.ts reads, from its source: a new one without a row above fails. */
function settingsOfConfig(): string[] {
  const source = readFileSync(join(import.meta.dirname, "../../src/config.ts"), "utf8");
  return [...new Set([...source.matchAll(/^\s+(HERALD_[A-Z_]+):/gm)].map((m) => m[1]!))].sort();
}

/** loadConfig and the derived tuning (where list settings are checked entry by entry). */
const load = (env: Record<string, string>) => tuningFrom(loadConfig(env)) && loadConfig(env);

describe("HERALD_* settings", () => {
  it("has a row for every setting config.ts reads", () => {
    expect(Object.keys(settings).sort()).toEqual(settingsOfConfig());
  });

  for (const [name, { fallback, good, bad, alongside = {} }] of Object.entries(settings)) {
    it(`${name}: default, parsing, refusal naming it`, () => {
      expect((load({}) as Record<string, unknown>)[name], "default").toEqual(fallback);
      // An empty value is an unset one (a blank line in an env file), never a zero.
      expect((load({ [name]: "" }) as Record<string, unknown>)[name], "empty").toEqual(fallback);
      expect((load({ ...alongside, [name]: good[0] }) as Record<string, unknown>)[name], "parsed").toEqual(good[1]);
      for (const value of bad) {
        expect(() => load({ [name]: value }), `${name}=${value}`).toThrow(new RegExp(`^Invalid environment: ${name}\\b`));
      }
    });
  }

  it("refuses one VAPID key without the other, naming the pair", () => {
    expect(() => load({ HERALD_VAPID_PUBLIC_KEY: "BPublicKeyBase64url" })).toThrow(/^Invalid environment: HERALD_VAPID_PRIVATE_KEY .*set together/);
    expect(() => load({ HERALD_VAPID_PRIVATE_KEY: "privateKeyBase64url" })).toThrow(/^Invalid environment: HERALD_VAPID_PRIVATE_KEY .*set together/);
  });

  it("never repeats a refused value in its message (it may be a secret)", () => {
    expect(() => load({ HERALD_METRICS_TOKEN: "s3cr3t" })).toThrow(/^Invalid environment: HERALD_METRICS_TOKEN /);
    try {
      load({ HERALD_METRICS_TOKEN: "s3cr3t" });
    } catch (error) {
      expect((error as Error).message).not.toContain("s3cr3t");
    }
  });

  it("stops `herald serve` on a bad value: the message names the setting, nothing is served or created", async () => {
    const dir = createTempDir("herald-settings-");
    const file = join(dir.path, "herald.db");
    const refused = heraldCommand(["serve"], { DATABASE_URL: `file:${file}`, PORT: "0", HERALD_SSE_HEARTBEAT_MS: "fast" });
    const failure = (await refused.then(
      () => null,
      (error: unknown) => error,
    )) as { stderr: string; stdout: string; code: number } | null;
    expect(failure).not.toBeNull();
    expect(failure!.code).not.toBe(0);
    expect(failure!.stderr).toMatch(/Invalid environment: HERALD_SSE_HEARTBEAT_MS\b/);
    expect(failure!.stderr).not.toMatch(/^\s+at /m);
    expect(failure!.stdout).not.toContain("HERALD_READY");
    expect(existsSync(file)).toBe(false);
    dir.remove();
  }, 60_000);
});
