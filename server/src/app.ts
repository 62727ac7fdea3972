// The composition root: builds every part from configuration and wires them together.
// Nothing else constructs stores or services.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expireServerLifetimeRecords } from "./background/retention.ts";
import { type Clock, systemClock } from "./domain/clock.ts";
import { InMemoryEventBus } from "./events/bus.ts";
import type { Logger } from "./logger.ts";
import { AuthService } from "./service/auth-service.ts";
import { CursorCodec } from "./service/cursor.ts";
import { DirectoryService } from "./service/directory-service.ts";
import { NotificationService } from "./service/notification-service.ts";
import type { Services } from "./services.ts";
import { CredentialStore } from "./storage/credential-store.ts";
import { type Database, openDatabase, resolveDatabaseUrl } from "./storage/database.ts";
import { DirectoryStore } from "./storage/directory-store.ts";
import { migrate, pendingMigrations } from "./storage/migrate.ts";
import { NotificationStore } from "./storage/notification-store.ts";
import { randomSecret, SettingsStore } from "./storage/settings-store.ts";
import { createGraphQLHandler } from "./transport/http/yoga.ts";

export interface HeraldOptions {
  databaseUrl?: string | undefined;
  clock?: Clock;
  logger: Logger;
  /** Apply migrations first (default true). */
  migrate?: boolean;
}

export interface Herald {
  services: Services;
  database: Database;
  bus: InMemoryEventBus;
  close(): Promise<void>;
}

export async function createHerald(options: HeraldOptions): Promise<Herald> {
  const url = resolveDatabaseUrl(options.databaseUrl);
  let database = await openDatabase(url);
  if (options.migrate !== false && (await pendingMigrations(database)).length > 0) {
    // The migration engine runs in its own process and wants the store to itself.
    await database.close();
    await migrate(url);
    database = await openDatabase(url);
  }
  const clock = options.clock ?? systemClock;

  const notificationStore = new NotificationStore(database);
  await notificationStore.init();
  const directoryStore = new DirectoryStore(database.db);
  const settings = new SettingsStore(database.db);
  const cursors = new CursorCodec(await settings.getOrCreate("cursor-secret", randomSecret));
  const bus = new InMemoryEventBus();

  const services: Services = {
    notifications: new NotificationService(notificationStore, directoryStore, bus, cursors, clock),
    directory: new DirectoryService(directoryStore),
    auth: new AuthService(new CredentialStore(database.db), directoryStore, clock),
  };
  return { services, database, bus, close: () => database.close() };
}

export interface RunningServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** Starts serving HTTP once the store is migrated and server-lifetime records are settled. */
export async function startServer(herald: Herald, logger: Logger, port: number, host: string): Promise<RunningServer> {
  await expireServerLifetimeRecords(herald.services.notifications, logger);
  const yoga = createGraphQLHandler(herald.services, logger);
  const server = createServer(yoga);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  const shownHost = host === "0.0.0.0" || host === "::" ? "localhost" : host;
  const url = `http://${shownHost}:${address.port}`;
  return {
    url,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
