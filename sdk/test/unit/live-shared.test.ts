// Live views with `share` in two "tabs" (two clients over one fake server, Node's real
// BroadcastChannel, an in-memory Web Locks queue): a view that pauses in the following tab
// catches up from the leader without a new snapshot, resumes from its own cursor when it finds no
// leader, and reloads its snapshot only when no tab holds its cursor.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  browserEnvironment,
  type Counts,
  DismissalCache,
  type LiveSource,
  LiveView,
  type Notification,
  type NotificationEvent,
  type Page,
  type Sink,
} from "../../src/index.ts";
import { fakeLocks } from "./fake-locks.ts";
import { notification } from "./fixtures.ts";

/** The server: one event log, replayed after a cursor like notificationEvents(after:). */
class Server {
  readonly log: NotificationEvent[] = [];
  readonly tabs: Tab[] = [];

  commit(n: Notification) {
    const event = { cursor: `c${this.log.length + 1}`, type: "CREATED", notification: n } as NotificationEvent;
    this.log.push(event);
    for (const tab of this.tabs) for (const stream of tab.open) stream.sink.next(event);
  }
}

/** One tab's client. */
class Tab implements LiveSource {
  readonly dismissals = new DismissalCache(async (n) => ({ ok: true, notification: n as Notification }));
  readonly streams: { after: string | null; sink: Sink<NotificationEvent>; open: boolean }[] = [];
  pages = 0;

  constructor(private readonly server: Server) {
    server.tabs.push(this);
  }

  async eventsCursor(): Promise<string> {
    return `c${this.server.log.length}`;
  }

  events(after: string | null, sink: Sink<NotificationEvent>): () => void {
    const stream = { after, sink, open: true };
    this.streams.push(stream);
    const from = after ? Number(after.slice(1)) : this.server.log.length;
    for (const event of this.server.log.slice(from)) sink.next(event);
    return () => void (stream.open = false);
  }

  async page(): Promise<Page> {
    this.pages++;
    const items = this.server.log.map((e) => e.notification).reverse();
    return { items, totalCount: items.length, nextCursor: null, hasNextPage: false };
  }

  async counts(): Promise<Counts> {
    return { total: this.server.log.length, unseen: this.server.log.length, unread: this.server.log.length };
  }

  get open() {
    return this.streams.filter((s) => s.open);
  }
}

function visibility() {
  const document = Object.assign(new EventTarget(), { visibilityState: "visible" as DocumentVisibilityState });
  const environment = browserEnvironment({
    document: document as unknown as Document,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  })!;
  return {
    environment,
    set(state: DocumentVisibilityState) {
      document.visibilityState = state;
      document.dispatchEvent(new Event("visibilitychange"));
    },
  };
}

const share = { key: "person-1" };
const ids = (view: LiveView) => view.current.items.map((n) => n.id);
const views: LiveView[] = [];

beforeEach(() => {
  vi.stubGlobal("navigator", { locks: fakeLocks() });
});
afterEach(() => {
  for (const view of views.splice(0)) view.close();
  vi.unstubAllGlobals();
});

function open(tab: Tab, environment: ReturnType<typeof visibility>["environment"] | null = null): LiveView {
  const view = new LiveView(tab, {}, { share, environment, pauseWhenHiddenMs: 10 });
  views.push(view);
  view.subscribe(() => undefined);
  return view;
}

/** A leader in tab A, a follower in tab B that saw one event and then paused (its tab hidden). */
async function pausedFollower() {
  const server = new Server();
  const [tabA, tabB] = [new Tab(server), new Tab(server)];
  const leader = open(tabA);
  await vi.waitFor(() => expect(leader.current.connection).toBe("live"));
  const page = visibility();
  const follower = open(tabB, page.environment);
  await vi.waitFor(() => expect(follower.current.connection).toBe("live"));
  const first = notification();
  server.commit(first);
  await vi.waitFor(() => expect(ids(follower)).toEqual([first.id]));
  expect(follower.lastCursor).toBe("c1");
  page.set("hidden");
  await vi.waitFor(() => expect(follower.current.connection).toBe("paused"));
  return { server, tabA, tabB, leader, follower, page, first };
}

describe("live views sharing one stream across tabs", () => {
  it("catch up from the leader after a pause in the following tab, without a new snapshot", async () => {
    const { server, tabB, leader, follower, page, first } = await pausedFollower();
    const missed = notification();
    server.commit(missed);
    await vi.waitFor(() => expect(ids(leader)).toEqual([missed.id, first.id]));
    page.set("visible");
    await vi.waitFor(() => expect(ids(follower)).toEqual([missed.id, first.id]));
    expect(follower.current.connection).toBe("live");
    expect(tabB.pages).toBe(1);
    expect(tabB.streams).toHaveLength(0);
  });

  it("resume from their own cursor when the leader left meanwhile", async () => {
    const { server, tabB, leader, follower, page, first } = await pausedFollower();
    leader.close();
    const missed = notification();
    server.commit(missed);
    page.set("visible");
    await vi.waitFor(() => expect(ids(follower)).toEqual([missed.id, first.id]));
    expect(tabB.open.map((s) => s.after)).toEqual(["c1"]);
    expect(tabB.pages).toBe(1);
  });

  it("reload the snapshot when no tab holds their cursor", async () => {
    const { server, tabA, tabB, leader: firstLeader, follower, page, first } = await pausedFollower();
    firstLeader.close();
    const missed = notification();
    server.commit(missed);
    // A new view in tab A leads from a head cursor after `missed`: it never saw the follower's cursor.
    const secondLeader = open(tabA);
    await vi.waitFor(() => expect(secondLeader.current.connection).toBe("live"));
    page.set("visible");
    await vi.waitFor(() => expect(ids(follower)).toEqual([missed.id, first.id]));
    expect(tabB.pages).toBe(2);
    expect(tabB.streams).toHaveLength(0);
    expect(follower.current).toMatchObject({ connection: "live", error: null });
  });
});
