// Everything the server reads from its environment, checked once at start.
import { isIP } from "node:net";
import { z } from "zod";

const schema = z
  .object({
    DATABASE_URL: z.string().optional(),
    PORT: z.coerce.number().int().min(0).max(65_535).default(4000),
    HOST: z.string().default("127.0.0.1"),
    NODE_ENV: z.string().default("development"),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    /** `pretty` (readable lines) or `json`; unset: pretty on a terminal, JSON otherwise. */
    HERALD_LOG_FORMAT: z.enum(["json", "pretty"]).optional(),
    /** Set to carry events between several instances; unset, one process works in memory. */
    REDIS_URL: z.string().optional(),
    HERALD_SSE_HEARTBEAT_MS: z.coerce.number().int().min(100).default(15_000),
    HERALD_SSE_BUFFER_BYTES: z.coerce
      .number()
      .int()
      .min(1_024)
      .default(1024 * 1024),
    HERALD_STREAM_QUEUE: z.coerce.number().int().min(10).default(1_000),
    HERALD_SNOOZE_INTERVAL_MS: z.coerce.number().int().min(10).default(1_000),
    /** How often a stream holding notifications for quiet hours checks whether they have ended. */
    HERALD_QUIET_HOURS_CHECK_MS: z.coerce.number().int().min(10).default(30_000),
    HERALD_FEED_POLL_MS: z.coerce.number().int().min(10).default(2_000),
    HERALD_MAX_BODY_BYTES: z.coerce
      .number()
      .int()
      .min(1_024)
      .default(256 * 1024),
    HERALD_SSE_RESERVATION_TTL_MS: z.coerce.number().int().min(100).default(30_000),
    HERALD_SSE_RESERVATIONS_PER_CREDENTIAL: z.coerce.number().int().min(1).default(10),
    /** Comma-separated origins allowed to call the API from a browser (besides HERALD_DASHBOARD_URL). */
    HERALD_CORS_ORIGINS: z.string().default(""),
    /** GraphiQL (its assets served by Herald itself): on by default only outside production. */
    HERALD_GRAPHIQL: z.enum(["true", "false", "1", "0", "on", "off"]).optional(),
    HERALD_MAX_STREAMS_PER_CREDENTIAL: z.coerce.number().int().min(1).default(16),
    HERALD_REVOCATION_CHECK_MS: z.coerce.number().int().min(10).default(2_000),
    HERALD_RATE_LIMIT_POINTS: z.coerce.number().int().min(1).default(3_000),
    HERALD_RATE_LIMIT_WINDOW_S: z.coerce.number().int().min(1).default(60),
    /** Comma-separated addresses and CIDR ranges of proxies whose X-Forwarded-For is believed; default none. */
    HERALD_TRUSTED_PROXIES: z.string().default(""),
    /** Bearer token for /metrics; unset, /metrics answers 404. */
    HERALD_METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
    /** An OpenAI-compatible API (base URL or its /chat/completions endpoint); unset: the built-in labeler. */
    HERALD_LABELER_URL: z.preprocess((v) => (v === "" ? undefined : v), z.string().url().optional()),
    HERALD_LABELER_MODEL: z.string().min(1).default("gpt-4o-mini"),
    HERALD_LABELER_KEY: z.string().optional(),
    HERALD_LABELER_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    /** The trigger scanner's cycle (one instance of a deployment scans per cycle). */
    HERALD_SCAN_INTERVAL_MS: z.coerce.number().int().min(1_000).default(300_000),
    /** How many days ahead a date in a remembered fact is announced. */
    HERALD_DATE_LEAD_DAYS: z.coerce.number().int().min(0).max(366).default(7),
    /** The zone "today" is judged in for reminders when a person has none (their quiet hours' zone); default the server's. */
    HERALD_TIME_ZONE: z
      .string()
      .optional()
      .refine((zone) => zone === undefined || zone === "" || isTimeZone(zone), "must be an IANA time zone, e.g. Europe/Berlin"),
    /** Days without activity after which an engagement's operator is nudged. */
    HERALD_STALE_ENGAGEMENT_DAYS: z.coerce.number().int().min(1).max(3_650).default(14),
    /** Terminal notifications kept per scope target (person, session, or the server for APPLICATION). */
    HERALD_HISTORY_LIMIT: z.coerce.number().int().min(0).default(200),
    HERALD_SQLITE_BUSY_MS: z.coerce.number().int().min(0).default(10_000),
    /** How long events stay replayable: a pruned record and its events go once its last change is this old. */
    HERALD_EVENT_RETENTION_HOURS: z.coerce.number().min(0).default(168),
    /** How often terminal history beyond the limit is pruned (and old action invocations swept). */
    HERALD_HISTORY_INTERVAL_MS: z.coerce.number().int().min(100).default(60_000),
    /** How long an action invocation is kept (pending or settled) after it was made. */
    HERALD_INVOCATION_RETENTION_HOURS: z.coerce.number().min(0).default(168),
    /** Attachment downloads one credential may have in flight at once on an instance. */
    HERALD_ASSET_DOWNLOADS_PER_CREDENTIAL: z.coerce.number().int().min(1).default(4),
    /** A download's rate while other requests are being served (0: never paced). */
    HERALD_ASSET_PACED_BYTES_PER_SECOND: z.coerce
      .number()
      .int()
      .min(0)
      .default(8 * 1024 * 1024),
    /** Largest attachment a producer may upload (uploadAsset). */
    HERALD_ASSET_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1_024)
      .max(1024 * 1024 * 1024)
      .default(10 * 1024 * 1024),
    /** How long an upload no notification references is kept before it is collected. */
    HERALD_ASSET_GRACE_MS: z.coerce
      .number()
      .int()
      .min(0)
      .default(60 * 60 * 1000),
    /**
     * Where attachment bytes are kept as files. Unset: beside a SQLite database file
     * (`<file>-assets`); in the database itself on PostgreSQL (instances would need a shared directory).
     */
    HERALD_ASSET_DIR: z.preprocess((v) => (v === "" ? undefined : v), z.string().optional()),
    /** How often unreferenced attachments are collected. */
    HERALD_ASSET_COLLECT_INTERVAL_MS: z.coerce
      .number()
      .int()
      .min(1_000)
      .default(10 * 60 * 1000),
    /** How often this instance records that it is still running (server-lifetime retention across instances). */
    HERALD_INSTANCE_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(3_600).default(15),
    /** A heartbeat older than this ends the instance's UNTIL_SERVER_RESTART records; at least two heartbeats. */
    HERALD_INSTANCE_GRACE_SECONDS: z.coerce.number().int().min(2).max(86_400).default(60),
    /** OpenTelemetry traces over OTLP/HTTP: on when an endpoint is set (or HERALD_OTEL=on), off by default. */
    OTEL_EXPORTER_OTLP_ENDPOINT: z.preprocess((v) => (v === "" ? undefined : v), z.url({ protocol: /^https?$/ }).optional()),
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.preprocess((v) => (v === "" ? undefined : v), z.url({ protocol: /^https?$/ }).optional()),
    OTEL_SERVICE_NAME: z.string().min(1).default("herald"),
    HERALD_OTEL: z.enum(["on", "off"]).optional(),
    /** Where the dashboard is served, for printed sign-in links (kept without a trailing slash). */
    HERALD_DASHBOARD_URL: z
      .url({ protocol: /^https?$/ })
      .transform((url) => url.replace(/\/+$/, ""))
      .optional(),
    /** The server's public base URL, for links that lead back to it (channel action URLs); default: the address it listens on. */
    HERALD_PUBLIC_URL: z
      .url({ protocol: /^https?$/ })
      .transform((url) => url.replace(/\/+$/, ""))
      .optional(),
    /** Web Push contact (mailto: or https:) sent in the VAPID claims. */
    HERALD_VAPID_SUBJECT: z
      .string()
      .regex(/^(mailto:|https:)/, "must be a mailto: or https: URL")
      .default("mailto:herald@localhost"),
    /** Both set: the VAPID key pair to use (base64url); else one is generated once and kept in the store. */
    HERALD_VAPID_PUBLIC_KEY: z.preprocess((v) => (v === "" ? undefined : v), z.string().optional()),
    HERALD_VAPID_PRIVATE_KEY: z.preprocess((v) => (v === "" ? undefined : v), z.string().optional()),
    /** Comma-separated host names or addresses channel URLs may reach although private or plain http:. */
    HERALD_CHANNEL_ALLOW_HOSTS: z.string().default(""),
    /** Attempts of one channel delivery before it fails. */
    HERALD_DELIVERY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
    /** First retry delay of a delivery, doubled each time with jitter. */
    HERALD_DELIVERY_RETRY_BASE_MS: z.coerce.number().int().min(1).default(2_000),
    /** How often the delivery worker looks for due deliveries besides being woken by a publish. */
    HERALD_DELIVERY_POLL_MS: z.coerce.number().int().min(10).default(1_000),
    /** Longest one delivery attempt may take (connect, send, read the answer). */
    HERALD_DELIVERY_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    /** Deliveries one instance sends at once. */
    HERALD_DELIVERY_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(32),
  })
  .superRefine((config, context) => {
    // One late heartbeat must not make the other instances end this one's records.
    if (config.HERALD_INSTANCE_GRACE_SECONDS < 2 * config.HERALD_INSTANCE_HEARTBEAT_SECONDS) {
      context.addIssue({ code: "custom", path: ["HERALD_INSTANCE_GRACE_SECONDS"], message: "must be at least twice HERALD_INSTANCE_HEARTBEAT_SECONDS" });
    }
    if (Boolean(config.HERALD_VAPID_PUBLIC_KEY) !== Boolean(config.HERALD_VAPID_PRIVATE_KEY)) {
      context.addIssue({
        code: "custom",
        path: ["HERALD_VAPID_PRIVATE_KEY"],
        message: "HERALD_VAPID_PUBLIC_KEY and HERALD_VAPID_PRIVATE_KEY are set together or not at all",
      });
    }
  });

/** The dashboard's address when HERALD_DASHBOARD_URL is unset (its development server). */
export const DEFAULT_DASHBOARD_URL = "http://127.0.0.1:5173";

export type Config = z.infer<typeof schema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty value is an unset one (`HERALD_HISTORY_LIMIT=` in an env file): numbers would
  // otherwise read it as 0 and keep no history, or poll without pause.
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value === undefined || value.trim() !== ""));
  const result = schema.safeParse(given);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new Error(`Invalid environment: ${issue.path.join(".")} ${issue.message}`);
  }
  return result.data;
}

/** Run-time settings (documented in the README, "Real-time delivery" and "Operations"). */
export interface Tuning {
  redisUrl: string | undefined;
  heartbeatMs: number;
  maxBufferedBytes: number;
  maxQueuedEvents: number;
  snoozeIntervalMs: number;
  quietHoursCheckMs: number;
  feedPollMs: number;
  /** Open streams one credential may hold on one instance. */
  maxStreamsPerCredential: number;
  /** How often an instance asks the store whether a credential holding a stream was revoked. */
  revocationCheckMs: number;
  /** Requests one credential (or one client address without one) may make per window. */
  rateLimitPoints: number;
  rateLimitWindowSeconds: number;
  /** Proxies (addresses, CIDR ranges) whose X-Forwarded-For names the client; empty: the socket's peer is the client. */
  trustedProxies: string[];
  metricsToken: string | undefined;
  scanIntervalMs: number;
  dateLeadDays: number;
  /** HERALD_TIME_ZONE, or the server's own zone. */
  timeZone: string;
  staleEngagementDays: number;
  /** Largest request body accepted on /graphql and /graphql/stream. */
  maxBodyBytes: number;
  /** How long a single-connection stream reservation (PUT /graphql/stream) waits to be opened. */
  reservationTtlMs: number;
  /** Reservations one credential may hold unopened at once. */
  reservationsPerCredential: number;
  /** Browser origins allowed by CORS (exact match, scheme://host[:port]). */
  corsOrigins: string[];
  graphiql: boolean;
  /** Terminal records kept per scope target (HERALD_HISTORY_LIMIT). */
  historyLimit: number;
  /** SQLite: how long a write waits for another process's lock on the file before STORAGE_UNAVAILABLE (HERALD_SQLITE_BUSY_MS). */
  sqliteBusyMs: number;
  /** Age of a record's last change before it may be pruned with its events. */
  eventRetentionMs: number;
  historyIntervalMs: number;
  /** Age after which an action invocation is deleted by the sweep (HERALD_INVOCATION_RETENTION_HOURS). */
  invocationRetentionMs: number;
  /** Concurrent attachment downloads per credential; past it HTTP 429. */
  assetDownloadsPerCredential: number;
  /** A download's rate while other requests are served; 0 never paces (HERALD_ASSET_PACED_BYTES_PER_SECOND). */
  assetPacedBytesPerSecond: number;
  /** Largest attachment accepted; multipart uploads by a producer key may be this much larger than maxBodyBytes. */
  assetMaxBytes: number;
  /** Age below which an unreferenced attachment is kept (an upload waiting for its publish). */
  assetGraceMs: number;
  assetCollectIntervalMs: number;
  /** How often this instance beats (HERALD_INSTANCE_HEARTBEAT_SECONDS). */
  instanceHeartbeatMs: number;
  /** Heartbeat age after which an instance counts as ended (HERALD_INSTANCE_GRACE_SECONDS). */
  instanceGraceMs: number;
  /** HERALD_ASSET_DIR as given (undefined: the provider's default, see assetDirFor). */
  assetDir: string | undefined;
  /** Where spans go (OTLP/HTTP …/v1/traces); undefined: tracing off. */
  otlpTracesUrl: string | undefined;
  otelServiceName: string;
  /** HERALD_PUBLIC_URL: where action URLs point; undefined: the address the server listens on. */
  publicUrl: string | undefined;
  /** Where channel payloads link to (HERALD_DASHBOARD_URL, or the development server). */
  dashboardUrl: string;
  vapidSubject: string;
  /** Configured VAPID keys; null: the store's own pair. */
  vapidKeys: { publicKey: string; privateKey: string } | null;
  /** Hosts (lower-case names or addresses) channel URLs may reach although private or http:. */
  channelAllowHosts: string[];
  deliveryMaxAttempts: number;
  deliveryRetryBaseMs: number;
  deliveryPollMs: number;
  deliveryTimeoutMs: number;
  deliveryConcurrency: number;
}

export function tuningFrom(config: Config): Tuning {
  return {
    redisUrl: config.REDIS_URL || undefined,
    heartbeatMs: config.HERALD_SSE_HEARTBEAT_MS,
    maxBufferedBytes: config.HERALD_SSE_BUFFER_BYTES,
    maxQueuedEvents: config.HERALD_STREAM_QUEUE,
    snoozeIntervalMs: config.HERALD_SNOOZE_INTERVAL_MS,
    quietHoursCheckMs: config.HERALD_QUIET_HOURS_CHECK_MS,
    feedPollMs: config.HERALD_FEED_POLL_MS,
    maxStreamsPerCredential: config.HERALD_MAX_STREAMS_PER_CREDENTIAL,
    revocationCheckMs: config.HERALD_REVOCATION_CHECK_MS,
    rateLimitPoints: config.HERALD_RATE_LIMIT_POINTS,
    rateLimitWindowSeconds: config.HERALD_RATE_LIMIT_WINDOW_S,
    trustedProxies: trustedProxies(config),
    metricsToken: config.HERALD_METRICS_TOKEN || undefined,
    scanIntervalMs: config.HERALD_SCAN_INTERVAL_MS,
    dateLeadDays: config.HERALD_DATE_LEAD_DAYS,
    timeZone: config.HERALD_TIME_ZONE || Intl.DateTimeFormat().resolvedOptions().timeZone,
    staleEngagementDays: config.HERALD_STALE_ENGAGEMENT_DAYS,
    maxBodyBytes: config.HERALD_MAX_BODY_BYTES,
    reservationTtlMs: config.HERALD_SSE_RESERVATION_TTL_MS,
    reservationsPerCredential: config.HERALD_SSE_RESERVATIONS_PER_CREDENTIAL,
    corsOrigins: allowedOrigins(config),
    historyLimit: config.HERALD_HISTORY_LIMIT,
    sqliteBusyMs: config.HERALD_SQLITE_BUSY_MS,
    eventRetentionMs: Math.round(config.HERALD_EVENT_RETENTION_HOURS * 3_600_000),
    historyIntervalMs: config.HERALD_HISTORY_INTERVAL_MS,
    invocationRetentionMs: Math.round(config.HERALD_INVOCATION_RETENTION_HOURS * 3_600_000),
    assetDownloadsPerCredential: config.HERALD_ASSET_DOWNLOADS_PER_CREDENTIAL,
    assetPacedBytesPerSecond: config.HERALD_ASSET_PACED_BYTES_PER_SECOND,
    assetMaxBytes: config.HERALD_ASSET_MAX_BYTES,
    assetGraceMs: config.HERALD_ASSET_GRACE_MS,
    assetCollectIntervalMs: config.HERALD_ASSET_COLLECT_INTERVAL_MS,
    assetDir: config.HERALD_ASSET_DIR,
    graphiql: config.HERALD_GRAPHIQL ? ["true", "1", "on"].includes(config.HERALD_GRAPHIQL) : config.NODE_ENV !== "production",
    instanceHeartbeatMs: config.HERALD_INSTANCE_HEARTBEAT_SECONDS * 1_000,
    instanceGraceMs: config.HERALD_INSTANCE_GRACE_SECONDS * 1_000,
    otlpTracesUrl: otlpTracesUrl(config),
    otelServiceName: config.OTEL_SERVICE_NAME,
    publicUrl: config.HERALD_PUBLIC_URL,
    dashboardUrl: config.HERALD_DASHBOARD_URL ?? DEFAULT_DASHBOARD_URL,
    vapidSubject: config.HERALD_VAPID_SUBJECT,
    vapidKeys:
      config.HERALD_VAPID_PUBLIC_KEY && config.HERALD_VAPID_PRIVATE_KEY
        ? { publicKey: config.HERALD_VAPID_PUBLIC_KEY, privateKey: config.HERALD_VAPID_PRIVATE_KEY }
        : null,
    channelAllowHosts: config.HERALD_CHANNEL_ALLOW_HOSTS.split(",")
      .map((h) =>
        h
          .trim()
          .toLowerCase()
          .replace(/^\[(.*)\]$/, "$1"),
      )
      .filter(Boolean),
    deliveryMaxAttempts: config.HERALD_DELIVERY_MAX_ATTEMPTS,
    deliveryRetryBaseMs: config.HERALD_DELIVERY_RETRY_BASE_MS,
    deliveryPollMs: config.HERALD_DELIVERY_POLL_MS,
    deliveryTimeoutMs: config.HERALD_DELIVERY_TIMEOUT_MS,
    deliveryConcurrency: config.HERALD_DELIVERY_CONCURRENCY,
  };
}

/** OpenTelemetry's own variables and defaults: the traces endpoint as given, else the base endpoint's /v1/traces. */
function otlpTracesUrl(config: Config): string | undefined {
  if (config.HERALD_OTEL === "off") return undefined;
  if (config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const base = config.OTEL_EXPORTER_OTLP_ENDPOINT ?? (config.HERALD_OTEL === "on" ? "http://localhost:4318" : undefined);
  return base ? `${base.replace(/\/+$/, "")}/v1/traces` : undefined;
}

/** Checked at start: a malformed entry stops the server rather than trust nobody (or everybody) silently. */
function trustedProxies(config: Config): string[] {
  const entries = config.HERALD_TRUSTED_PROXIES.split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  entries.forEach(parseTrustedProxy);
  return entries;
}

export interface ProxyRange {
  address: string;
  family: 4 | 6;
  /** null: one address. */
  prefix: number | null;
}

/** One HERALD_TRUSTED_PROXIES entry: an IPv4 or IPv6 address, optionally with a /prefix. */
export function parseTrustedProxy(entry: string): ProxyRange {
  const [address = "", bits, extra] = entry.split("/");
  const family = isIP(address);
  const prefix = bits === undefined ? null : /^\d{1,3}$/.test(bits) ? Number(bits) : -1;
  if (family === 0 || extra !== undefined || (prefix !== null && (prefix < 0 || prefix > (family === 6 ? 128 : 32)))) {
    throw new Error(`Invalid environment: HERALD_TRUSTED_PROXIES entry "${entry}" is not an IP address or CIDR range`);
  }
  return { address, family: family as 4 | 6, prefix };
}

function allowedOrigins(config: Config): string[] {
  const listed = [...config.HERALD_CORS_ORIGINS.split(","), config.HERALD_DASHBOARD_URL ?? ""];
  const origins = listed
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      try {
        return new URL(entry).origin;
      } catch {
        throw new Error(`Invalid environment: HERALD_CORS_ORIGINS / HERALD_DASHBOARD_URL entry "${entry}" is not a URL`);
      }
    });
  return [...new Set(origins)];
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
