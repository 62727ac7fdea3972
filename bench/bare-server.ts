// The framework floor: a bare graphql-yoga server on node:http that answers the benchmark's own
// documents (publishNotification, notifications, markNotificationsSeen) with the raw driver's
// writes and keyset read. No credentials, no cost limits, no ORM, no event bus: what is left is
// HTTP, GraphQL and the SQL, so Herald's figures divided by these say what Herald adds on top.
// Started by bare-process.ts in its own process; prints `BARE_READY <url>` once it listens.
import { createServer } from "node:http";
import { createSchema, createYoga } from "graphql-yoga";
import type { RawDriver, RawRow } from "./raw-driver.ts";
import { openRawPostgres } from "./raw-postgres.ts";
import { openRawSqlite } from "./raw-sqlite.ts";
import { type ListQuery, newId, published } from "./rows.ts";

const typeDefs = /* GraphQL */ `
  type Source {
    plugin: String!
  }
  type Notification {
    id: ID!
    key: String!
    revision: Int!
    status: String!
    severity: String!
    title: String!
    body: String!
    createdAt: String!
    updatedAt: String!
    source: Source!
  }
  interface UserError {
    message: String!
  }
  type ValidationError implements UserError {
    message: String!
  }
  union PublishResult = Notification | ValidationError
  input SourceInput {
    plugin: String!
  }
  input PublishNotificationInput {
    scope: String!
    personId: ID
    key: String!
    title: String!
    body: String
    source: SourceInput!
  }
  type Edge {
    cursor: String!
    node: Notification!
  }
  type PageInfo {
    hasNextPage: Boolean!
    endCursor: String
  }
  type Connection {
    edges: [Edge!]!
    pageInfo: PageInfo!
  }
  type Query {
    notifications(first: Int!, after: String): Connection!
  }
  type Mutation {
    publishNotification(input: PublishNotificationInput!): PublishResult!
    markNotificationsSeen(ids: [ID!]!): [Notification!]!
  }
`;

const iso = (value: unknown) => new Date(value as string | Date).toISOString();
const render = (row: RawRow) => ({
  ...row,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
  source: { plugin: row.sourcePlugin },
  __typename: "Notification",
});

/** An unsigned position cursor: the floor has no secret to sign with, Herald's cursors are HMAC-signed. */
const encodeCursor = (row: RawRow) => Buffer.from(`${iso(row.createdAt)}|${row.id}`).toString("base64url");
function decodeCursor(cursor: string): ListQuery["after"] {
  const [createdAt, id] = Buffer.from(cursor, "base64url").toString().split("|");
  return { createdAt: new Date(createdAt!), id: id! };
}

function openDriver(): RawDriver {
  const env = process.env;
  if (env.BARE_PROVIDER === "sqlite") return openRawSqlite(env.BARE_SQLITE_FILE!);
  return openRawPostgres(env.BARE_PG_URL!, env.BARE_PG_SCHEMA!, Number(env.BARE_PG_POOL ?? 8));
}

const raw = openDriver();
const readerId = process.env.BARE_READER_ID!;

const schema = createSchema({
  typeDefs,
  resolvers: {
    Query: {
      notifications: async (_: unknown, args: { first: number; after?: string | null }) => {
        const rows = await raw.listRows({ personId: readerId, now: new Date(), after: args.after ? decodeCursor(args.after) : null, limit: args.first + 1 });
        const page = rows.slice(0, args.first);
        return {
          edges: page.map((row) => ({ cursor: encodeCursor(row), node: render(row) })),
          pageInfo: { hasNextPage: rows.length > args.first, endCursor: page.length ? encodeCursor(page.at(-1)!) : null },
        };
      },
    },
    Mutation: {
      publishNotification: async (_: unknown, { input }: { input: { personId: string; key: string; title: string; body?: string } }) => {
        const notification = published({ id: newId(), personId: input.personId, key: input.key, title: input.title, body: input.body ?? "", now: new Date() });
        const { id, revision } = await raw.upsertPublished(notification);
        return {
          __typename: "Notification",
          ...notification.row,
          id,
          revision,
          source: { plugin: "bench" },
          createdAt: new Date().toISOString(),
          updatedAt: new Date().toISOString(),
        };
      },
      markNotificationsSeen: async (_: unknown, { ids }: { ids: string[] }) => (await raw.markSeen(readerId, ids, new Date())).map(render),
    },
  },
});

const yoga = createYoga({ schema, logging: false, graphiql: false });
const server = createServer(yoga);
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  if (address && typeof address === "object") console.log(`BARE_READY http://127.0.0.1:${address.port}/graphql`);
});
const stop = () => server.close(() => void raw.close().finally(() => process.exit(0)));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
