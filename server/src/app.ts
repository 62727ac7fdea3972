// The composition root: builds every part from configuration and wires them together.
// Nothing else constructs stores, services, buses or background jobs.
import { randomUUID } from "node:crypto";
import { setFlagsFromString } from "node:v8";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { assertionCommitted } from "./background/listeners/assertion-committed.ts";
import { renderProduced } from "./background/listeners/render-produced.ts";
import { shapeConfirmed } from "./background/listeners/shape-confirmed.ts";
import { startAssetCollector } from "./background/asset-collector.ts";
import { expireLeftBehind, startInstanceHeartbeat } from "./background/server-instance.ts";
import { startRevocationSweep } from "./background/revocation-sweep.ts";
import { TriggerScanner } from "./background/scanner/scanner.ts";
import { InProcessSelector, SelectionThread } from "./background/scanner/selection-thread.ts";
import { startSnoozeWaker } from "./background/snooze-waker.ts";
import { startHistoryPruner } from "./background/history-pruner.ts";
import { startInvocationSweep } from "./background/invocation-sweep.ts";
import { HistoryService } from "./service/history-service.ts";
import { HistoryStore } from "./storage/notifications/history-store.ts";
import { loadConfig, type Tuning, tuningFrom } from "./config.ts";
import { type Clock, systemClock } from "./domain/clock.ts";
import { type EventBus, InMemoryEventBus } from "./events/bus.ts";
import { EventFeed } from "./realtime/event-feed.ts";
import { RedisEventBus } from "./events/redis-bus.ts";
import type { Logger } from "./logger.ts";
import { AssetService } from "./service/asset-service.ts";
import { AuthService } from "./service/auth-service.ts";
import { ChannelService, DeliveryBell } from "./service/channel-service.ts";
import { ActionLinkService } from "./service/action-link-service.ts";
import { DeliveryService } from "./service/delivery-service.ts";
import { startDeliveryWorker } from "./background/delivery-worker.ts";
import { withActionLinks } from "./transport/http/action-links.ts";
import { Agent as HttpsAgent } from "node:https";
import { ChannelStore } from "./storage/channels/channel-store.ts";
import { DeliveryOutbox } from "./storage/channels/delivery-outbox.ts";
import { vapidKeysOf } from "./service/channels/vapid.ts";
import { CursorCodec } from "./service/cursor.ts";
import { DirectoryService } from "./service/directory-service.ts";
import { EventService } from "./service/event-service.ts";
import { InvocationService } from "./service/invocation-service.ts";
import { ListenerRegistry } from "./service/listener-registry.ts";
import { NotificationService } from "./service/notification-service.ts";
import { BuiltinLabeler, type Labeler } from "./service/labelers/index.ts";
import { RealtimeService } from "./realtime/realtime-service.ts";
import { ServerInstanceService } from "./service/server-instance-service.ts";
import { SessionService } from "./service/session-service.ts";
import { ScanService } from "./service/scan-service.ts";
import type { Services } from "./services.ts";
import { assetBytesOf } from "./storage/assets/asset-bytes.ts";
import { AssetIndex, type AssetStore, DatabaseAssetStore } from "./storage/assets/asset-store.ts";
import { assetDirFor, FileAssetStore } from "./storage/assets/file-asset-store.ts";
import { CompanionStore } from "./storage/companion/companion-store.ts";
import { CredentialStore, SignInCodeStore } from "./storage/persons/credential-store.ts";
import { type Database, openDatabase, pingDatabase, resolveDatabaseUrl } from "./storage/connection/database.ts";
import { sqliteFileOf } from "./storage/connection/database-url.ts";
import { ScanReads } from "./storage/companion/scan-reads.ts";
import { DirectoryStore } from "./storage/persons/directory-store.ts";
import { EventLog } from "./storage/event-log/event-log.ts";
import { InvocationStore } from "./storage/invocations/invocation-store.ts";
import { migrate, pendingMigrations } from "./storage/migrations/migrate.ts";
import { NotificationStore } from "./storage/notifications/notification-store.ts";
import { ServerInstanceStore } from "./storage/server-state/server-instance-store.ts";
import { SessionStore } from "./storage/sessions/session-store.ts";
import { randomSecret, SettingsStore } from "./storage/server-state/settings-store.ts";
import { waitAtMost } from "./util/wait-at-most.ts";
import { withHealth } from "./transport/http/health.ts";
import { RequestRateLimiter } from "./transport/http/rate-limiter.ts";
import { SignInBudget } from "./transport/http/sign-in-budget.ts";
import { TrustedProxies } from "./transport/http/client-address.ts";
import { schema } from "./transport/graphql/schema.ts";
import { type ReadinessChecks, useReadiness } from "./transport/http/health.ts";
import { HeraldMetrics, useMetrics } from "./transport/http/metrics.ts";
import { withRequestIds } from "./util/request-context.ts";
import { createTracing, type Tracing } from "./transport/http/tracing.ts";
import type { SpanExporter } from "@opentelemetry/sdk-trace-base";
import { createGraphQLHandler } from "./transport/http/yoga.ts";

/** What `HeraldOptions.labeler` takes: embedders and tests supply their own. */
export type { Labeler, LabelRequest } from "./service/labelers/index.ts";

export interface HeraldOptions {
  databaseUrl?: string | undefined;
  clock?: Clock;
  logger: Logger;
  /** Apply migrations first (default true). */
  migrate?: boolean;
  tuning?: Partial<Tuning>;
  /** Names agent sessions (default: the built-in, offline labeler). */
  labeler?: Labeler;
  /** Receives a span per GraphQL execution, besides (or without) the OTLP endpoint of the settings. */
  spanExporter?: SpanExporter;
  /** TLS settings of channel deliveries (tests trust their local receivers' CA with it); default: the system's trust store. */
  channelAgent?: HttpsAgent;
  /** Random in [0, 1) for the delivery retries' jitter (tests fix it). */
  deliveryRandom?: () => number;
}

export interface Herald {
  services: Services;
  database: Database;
  feed: EventFeed;
  rateLimiter: RequestRateLimiter;
  signInBudget: SignInBudget;
  scanner: TriggerScanner;
  /** This process as an instance of the deployment (server-lifetime retention). */
  instance: ServerInstanceService;
  tuning: Tuning;
  logger: Logger;
  metrics: HeraldMetrics;
  /** The channel outbox's sender (the delivery worker runs it; tests and benchmarks may drain it). */
  deliveries: DeliveryService;
  /** Wakes the delivery worker. */
  deliveryBell: DeliveryBell;
  bus: EventBus;
  readiness: ReadinessChecks;
  /** Null unless traces are configured. */
  tracing: Tracing | null;
  close(): Promise<void>;
}

export async function createHerald(options: HeraldOptions): Promise<Herald> {
  const tuning: Tuning = { ...tuningFrom(loadConfig({})), ...options.tuning };
  const url = resolveDatabaseUrl(options.databaseUrl);
  let database = await openDatabase(url, { sqliteBusyMs: tuning.sqliteBusyMs });
  if (options.migrate !== false && (await pendingMigrations(database)).length > 0) {
    // Migrations apply on a connection of their own (migration-applier.ts); the store opens afresh after.
    await database.close();
    await migrate(url);
    database = await openDatabase(url, { sqliteBusyMs: tuning.sqliteBusyMs });
  }
  const clock = options.clock ?? systemClock;
  const logger = options.logger;

  const notificationStore = new NotificationStore(database, tuning.historyLimit);
  await notificationStore.init();
  const directoryStore = new DirectoryStore(database);
  const settings = new SettingsStore(database);
  const cursors = new CursorCodec(await settings.getOrCreate("cursor-secret", randomSecret));
  const eventLog = new EventLog(database);
  const invocationStore = new InvocationStore(database);
  await invocationStore.init();

  const metrics = new HeraldMetrics({
    openStreams: (): number => feed.listenerCount,
    // Read at scrape time, when the services exist.
    openConnections: (): number => services.realtime.heldConnections,
  });
  const tracing = await createTracing({ otlpTracesUrl: tuning.otlpTracesUrl, exporter: options.spanExporter, serviceName: tuning.otelServiceName });
  const readiness: ReadinessChecks = { database: () => pingDatabase(database) };
  let bus: EventBus = new InMemoryEventBus();
  let sharedRateLimit: { url: string; keyPrefix: string } | undefined;
  if (tuning.redisUrl) {
    const deployment = await settings.getOrCreate("deployment-id", () => randomUUID());
    const redis = new RedisEventBus(tuning.redisUrl, `herald:${deployment}:bus`, logger);
    await redis.start();
    bus = redis;
    sharedRateLimit = { url: tuning.redisUrl, keyPrefix: `herald:${deployment}:rate` };
    readiness.redis = () => redis.ping();
  }
  const rateLimiter = new RequestRateLimiter({ points: tuning.rateLimitPoints, windowSeconds: tuning.rateLimitWindowSeconds, redis: sharedRateLimit });
  const signInBudget = new SignInBudget(logger, sharedRateLimit);
  // Bounded: a Redis that is up is counted with from the first request; one that is not delays nothing for long.
  await rateLimiter.connected(3_000);
  const feed = new EventFeed(bus, eventLog, logger, { gapWaitMs: 50, pollMs: tuning.feedPollMs, observer: metrics });
  await feed.start();

  // Random per start: a restarted process is a new instance, and what the old one held ends.
  const instanceId = randomUUID();
  const notifications = new NotificationService(notificationStore, directoryStore, bus, cursors, clock, metrics, instanceId);
  const instance = new ServerInstanceService(new ServerInstanceStore(database), notifications, clock, { id: instanceId, graceMs: tuning.instanceGraceMs });
  const directory = new DirectoryService(directoryStore, bus, clock, tuning.timeZone);
  const sessions = new SessionService(new SessionStore(database), directory, notifications, options.labeler ?? new BuiltinLabeler(), logger, metrics);
  const auth = new AuthService(new CredentialStore(database), new SignInCodeStore(database), directoryStore, bus, clock);
  // emitEvent's dispatch table: one line per listener (modules in background/listeners/).
  const listeners = new ListenerRegistry().register(renderProduced).register(shapeConfirmed).register(assertionCommitted);
  const companionStore = new CompanionStore(database);
  const channelStore = new ChannelStore(database, Buffer.from(await settings.getOrCreate("channel-key", randomSecret), "base64url"));
  const outbox = new DeliveryOutbox(database);
  const bell = new DeliveryBell();
  const vapid = await vapidKeysOf(tuning.vapidKeys, settings);
  // The scanner's selections run on a thread of their own with its own connection (selection-thread.ts);
  // an in-memory SQLite store has nobody to share it with, so it selects on this client.
  const selectionOptions = { dateLeadDays: tuning.dateLeadDays, staleEngagementDays: tuning.staleEngagementDays, timeZone: tuning.timeZone };
  const selector =
    database.provider === "sqlite" && sqliteFileOf(database.url) === ":memory:"
      ? new InProcessSelector(new ScanReads(database.provider, (sql, params) => database.db.query(sql, params)), selectionOptions)
      : new SelectionThread({ databaseUrl: database.url, options: selectionOptions });
  const scanner = new TriggerScanner(new ScanService(companionStore), selector, notifications, clock, logger, { intervalMs: tuning.scanIntervalMs });
  const invocations = new InvocationService(notifications.writes, invocationStore, bus, cursors, clock, {
    retentionMs: tuning.invocationRetentionMs,
  });
  const services: Services = {
    notifications,
    directory,
    sessions,
    auth,
    realtime: new RealtimeService(feed, eventLog, invocationStore, notifications, directory, cursors, auth, logger, {
      maxQueuedEvents: tuning.maxQueuedEvents,
      quietHoursCheckMs: tuning.quietHoursCheckMs,
      pollMs: tuning.feedPollMs,
      clock,
      maxStreamsPerCredential: tuning.maxStreamsPerCredential,
      observer: metrics,
    }),
    events: new EventService(companionStore, directoryStore, listeners, notifications, clock),
    history: new HistoryService(new HistoryStore(database), clock, { limit: tuning.historyLimit, eventRetentionMs: tuning.eventRetentionMs }),
    invocations,
    assets: new AssetService(await assetStoreOf(database, tuning.assetDir), new AssetIndex(database), clock, {
      maxBytes: tuning.assetMaxBytes,
      graceMs: tuning.assetGraceMs,
    }),
    channels: new ChannelService(channelStore, outbox, notificationStore, clock, bell, {
      allowHosts: tuning.channelAllowHosts,
      vapidPublicKey: vapid.publicKey,
    }),
    actionLinks: new ActionLinkService(outbox, notificationStore, notifications, invocations, clock),
  };
  const deliveries = new DeliveryService(
    outbox,
    channelStore,
    notificationStore,
    directory,
    clock,
    {
      maxAttempts: tuning.deliveryMaxAttempts,
      retryBaseMs: tuning.deliveryRetryBaseMs,
      concurrency: tuning.deliveryConcurrency,
      // Past any attempt in flight (each is bounded by the timeout), so a live holder never loses its lease.
      leaseMs: tuning.deliveryTimeoutMs * 3 + 2_000,
      holdRecheckMs: 60_000,
      dashboardUrl: tuning.dashboardUrl,
      vapid,
      vapidSubject: tuning.vapidSubject,
      guard: {
        allowHosts: new Set(tuning.channelAllowHosts),
        timeoutMs: tuning.deliveryTimeoutMs,
        maxResponseBytes: 64 * 1024,
        agent: options.channelAgent ?? new HttpsAgent({ keepAlive: true, maxSockets: 64 }),
      },
      actionKey: Buffer.from(await settings.getOrCreate("action-key", randomSecret), "base64url"),
      ...(options.deliveryRandom ? { random: options.deliveryRandom } : {}),
    },
    (entry) => logger.debug(entry, "channel delivery"),
  );
  return {
    services,
    database,
    feed,
    rateLimiter,
    signInBudget,
    scanner,
    instance,
    tuning,
    logger,
    metrics,
    readiness,
    tracing,
    deliveries,
    deliveryBell: bell,
    bus,
    async close() {
      // Label refreshes in flight are bounded by the labeler's timeout; let them land.
      await sessions.settled();
      await scanner.close();
      await services.realtime.stop();
      await services.assets.close();
      rateLimiter.close();
      signInBudget.close();
      feed.stop();
      await bus.close();
      await database.close();
      await tracing?.shutdown();
    },
  };
}

/** Files in a directory where there is one (assetDirFor); else the bytes in the Asset rows. */
async function assetStoreOf(database: Database, configuredDir: string | undefined): Promise<AssetStore> {
  const rows = new DatabaseAssetStore(database, assetBytesOf(database));
  const dir = assetDirFor(database.url, database.provider, configuredDir);
  return dir ? FileAssetStore.open(dir, rows) : rows;
}

export interface RunningServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/**
 * V8 flags a serving process sets for itself at run time, so they hold however it was started
 * (`herald serve`, an embedder, a benchmark): V8 reads these at each full collection, not only at
 * start. `--flush-baseline-code`: a function's Sparkplug (baseline) code, like its bytecode
 * already by default, is dropped once the function has not run for a few collections, and compiled
 * again if it runs again. Without it a long-running server keeps code for every path it ever
 * reached: 10 minutes of fuzzing ended at 1.050x the start heap, and 1.001x, 0.996x and 0.983x
 * with it (bench/history.md, "Memory after long fuzzing: baseline code flushed").
 */
const SERVING_V8_FLAGS = ["--flush-baseline-code"];

/** Starts serving HTTP once the store is migrated and server-lifetime records are settled. */
export async function startServer(herald: Herald, port: number, host: string): Promise<RunningServer> {
  for (const flag of SERVING_V8_FLAGS) setFlagsFromString(flag);
  const { logger, tuning, instance } = herald;
  // Recorded before it takes traffic: no other instance's sweep takes what it publishes for orphaned.
  await instance.beat();
  await expireLeftBehind(instance, logger);
  const stopHeartbeat = startInstanceHeartbeat(instance, logger, tuning.instanceHeartbeatMs);
  const stopWaker = startSnoozeWaker(herald.services.notifications, logger, tuning.snoozeIntervalMs);
  const stopSweep = startRevocationSweep(herald.services.realtime, logger, tuning.revocationCheckMs);
  const stopPruner = startHistoryPruner(herald.services.history, logger, tuning.historyIntervalMs);
  const stopInvocationSweep = startInvocationSweep(herald.services.invocations, logger, tuning.historyIntervalMs);
  const stopScanner = herald.scanner.start();
  const stopCollector = startAssetCollector(herald.services.assets, logger, tuning.assetCollectIntervalMs);
  const limiters = { requests: herald.rateLimiter, signIn: herald.signInBudget, trustedProxies: new TrustedProxies(tuning.trustedProxies) };
  const yoga = createGraphQLHandler(herald.services, logger, tuning, limiters, {
    plugins: [
      ...(herald.tracing ? [herald.tracing.plugin] : []),
      useReadiness(herald.readiness, logger),
      useMetrics({ metrics: herald.metrics, schema, token: tuning.metricsToken }),
    ],
    observer: herald.metrics,
  });
  const server = createServer(withHealth(withActionLinks(herald.services.actionLinks, logger, withRequestIds(yoga, logger))));
  // Idle keep-alive sockets must outlive the client's and a load balancer's idle timeout (60 s
  // is common), or the server closes one just as a client reuses it and the request fails.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  const shownHost = host === "0.0.0.0" || host === "::" ? "localhost" : host;
  const url = `http://${shownHost}:${address.port}`;
  herald.deliveries.setActionBaseUrl(tuning.publicUrl ?? url);
  const stopDeliveries = startDeliveryWorker(herald.deliveries, herald.bus, herald.deliveryBell, logger, tuning.deliveryPollMs);
  return {
    url,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        stopWaker();
        stopSweep();
        stopPruner();
        stopInvocationSweep();
        stopCollector();
        server.close(() => resolve());
        server.closeAllConnections();
      })
        .then(stopScanner)
        .then(stopDeliveries)
        .then(() => stopInstance(instance, stopHeartbeat, logger)),
  };
}

/**
 * A clean stop ends this instance's server-lifetime records once no request can publish more.
 * Bounded: what does not finish in time (or fails) is left to the other instances' sweep, which
 * ends it once this instance's heartbeat is older than the grace.
 */
async function stopInstance(instance: ServerInstanceService, stopHeartbeat: () => void, logger: Logger): Promise<void> {
  stopHeartbeat();
  const stopped = instance.stop().then(
    (expired) => void (expired > 0 && logger.info({ expired }, "expired this instance's UNTIL_SERVER_RESTART notifications")),
    (error: unknown) =>
      logger.warn({ err: (error as Error).message }, "could not expire this instance's UNTIL_SERVER_RESTART notifications; other instances will"),
  );
  await waitAtMost(stopped, STOP_EXPIRY_BOUND_MS);
}

/** Well inside `herald serve`'s own 10 s shutdown bound (cli/main.ts), which also closes the store. */
const STOP_EXPIRY_BOUND_MS = 5_000;
