// When a live view holds a stream, against a fake source (no server): it lets go when the last
// listener leaves or the page stays hidden, resumes from its cursor without a new snapshot,
// reconnects at once when the browser is back online, and stops for good on a refused credential.
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  browserEnvironment,
  type Counts,
  DismissalCache,
  HeraldNetworkError,
  HeraldUnauthenticatedError,
  type LiveSource,
  LiveView,
  type Notification,
  type NotificationEvent,
  type Page,
  type Sink,
  systemClock,
} from "../../src/index.ts";
import { eventually } from "../support/server.ts";
import { notification } from "./fixtures.ts";

class Source implements LiveSource {
  readonly dismissals = new DismissalCache(async (n) => ({ ok: true, notification: n as Notification }));
  readonly streams: { after: string | null; sink: Sink<NotificationEvent>; open: boolean }[] = [];
  readonly records: Notification[] = [];
  pages = 0;
  cursorReads = 0;
  head = 0;
  refuse: Error | null = null;

  async eventsCursor(): Promise<string> {
    this.cursorReads++;
    if (this.refuse) throw this.refuse;
    return `c${this.head}`;
  }

  events(after: string | null, sink: Sink<NotificationEvent>): () => void {
    const stream = { after, sink, open: true };
    this.streams.push(stream);
    return () => void (stream.open = false);
  }

  async page(): Promise<Page> {
    this.pages++;
    if (this.refuse) throw this.refuse;
    return { items: [...this.records], totalCount: this.records.length, nextCursor: null, hasNextPage: false };
  }

  async counts(): Promise<Counts> {
    return { total: this.records.length, unseen: this.records.length, unread: this.records.length };
  }

  get open() {
    return this.streams.filter((s) => s.open);
  }

  commit(n: Notification) {
    this.records.unshift(n);
    for (const s of this.open) s.sink.next({ cursor: `c${++this.head}`, type: "CREATED", notification: n });
  }
}

/** A page whose visibility the test sets, and a window that can go back online. */
function fakeBrowser() {
  const document = Object.assign(new EventTarget(), { visibilityState: "visible" as DocumentVisibilityState });
  const window = new EventTarget();
  const environment = browserEnvironment({
    document: document as unknown as Document,
    addEventListener: (type, listener) => window.addEventListener(type, listener),
    removeEventListener: (type, listener) => window.removeEventListener(type, listener),
  })!;
  return {
    environment,
    setVisibility(state: DocumentVisibilityState) {
      document.visibilityState = state;
      document.dispatchEvent(new Event("visibilitychange"));
    },
    goOnline: () => window.dispatchEvent(new Event("online")),
  };
}

const FAST = { backoff: { initialMs: 1, maxMs: 2 } };

describe("live view lifecycle", () => {
  // Time-driven steps run on vitest's fake timers, installed once the view is live (it needs no
  // timer to get there) and moved by hand.
  afterEach(() => void vi.useRealTimers());

  it("lets the stream go when its last listener leaves and resumes from its cursor for the next", async () => {
    const source = new Source();
    const view = new LiveView(source, {}, { ...FAST, environment: null });
    const stopA = view.subscribe(() => undefined);
    const stopB = view.subscribe(() => undefined);
    await eventually(() => view.current.connection === "live");
    source.commit(notification({ id: "a" }));
    stopA();
    expect(source.open).toHaveLength(1);
    stopB();
    expect(source.open).toHaveLength(0);
    expect(view.active).toBe(false);
    source.commit(notification({ id: "b" })); // missed while nobody listened

    view.subscribe(() => undefined);
    await eventually(() => source.open.length === 1);
    // Resumed after the last event it applied, with no second snapshot.
    expect(source.open[0]!.after).toBe("c1");
    expect(source.pages).toBe(1);
    view.close();
  });

  it("pauses after the page stays hidden, not on a short look away, and resumes when visible", async () => {
    const source = new Source();
    const browser = fakeBrowser();
    const view = new LiveView(source, {}, { ...FAST, environment: browser.environment, pauseWhenHiddenMs: 10_000 });
    const states: string[] = [];
    view.subscribe((s) => states.push(s.connection));
    await eventually(() => view.current.connection === "live");
    vi.useFakeTimers();

    browser.setVisibility("hidden");
    browser.setVisibility("visible");
    await vi.advanceTimersByTimeAsync(20_000);
    expect(source.open).toHaveLength(1);
    expect(states.at(-1)).toBe("live");

    browser.setVisibility("hidden");
    await vi.advanceTimersByTimeAsync(9_999);
    expect(view.current.connection).toBe("live");
    await vi.advanceTimersByTimeAsync(1);
    expect(view.current.connection).toBe("paused");
    expect(source.open).toHaveLength(0);
    source.commit(notification({ id: "while-hidden" }));
    expect(view.current.items).toHaveLength(0);

    vi.useRealTimers();
    browser.setVisibility("visible");
    await eventually(() => view.current.connection === "live");
    expect(source.open).toHaveLength(1);
    expect(source.open[0]!.after).toBe("c0");
    expect(source.pages).toBe(1);
    view.close();
  });

  it("does not open a stream while the page is hidden at the start", async () => {
    const source = new Source();
    const browser = fakeBrowser();
    browser.setVisibility("hidden");
    vi.useFakeTimers();
    const view = new LiveView(source, {}, { ...FAST, environment: browser.environment, pauseWhenHiddenMs: 0 });
    view.subscribe(() => undefined);
    // Whatever the view might start later would wait on a timer: run them all, and what they start.
    await vi.runAllTimersAsync();
    expect(source.cursorReads).toBe(0);
    vi.useRealTimers();
    browser.setVisibility("visible");
    await eventually(() => view.current.connection === "live");
    view.close();
  });

  it("reconnects at once when the browser is back online instead of waiting out the backoff", async () => {
    const source = new Source();
    const browser = fakeBrowser();
    // The top of the jitter range: the reconnect waits the whole minute.
    const clock = { ...systemClock, random: () => 1 };
    const view = new LiveView(source, {}, { backoff: { initialMs: 60_000, maxMs: 60_000 }, clock, environment: browser.environment });
    view.subscribe(() => undefined);
    await eventually(() => view.current.connection === "live");
    const reads = source.cursorReads;
    source.open[0]!.sink.error(new HeraldNetworkError("network down"));
    expect(view.current.connection).toBe("reconnecting");
    browser.goOnline();
    await eventually(() => view.current.connection === "live", 2_000);
    expect(source.open).toHaveLength(1);
    // A resume: no new cursor read or snapshot.
    expect(source.cursorReads).toBe(reads);
    view.close();
  });

  it("stops retrying on a refused credential and says unauthorized until refresh()", async () => {
    const source = new Source();
    const browser = fakeBrowser();
    const view = new LiveView(source, {}, { ...FAST, environment: browser.environment, pauseWhenHiddenMs: 0 });
    view.subscribe(() => undefined);
    await eventually(() => view.current.connection === "live");
    source.refuse = new HeraldUnauthenticatedError("the credential was revoked");
    source.open[0]!.sink.error(source.refuse);
    expect(view.current.connection).toBe("unauthorized");
    expect(view.current.error).toBe(source.refuse);
    const reads = source.cursorReads;
    // Neither time (every timer run, and what they start), a new listener nor the page coming
    // back knocks again.
    vi.useFakeTimers();
    await vi.runAllTimersAsync();
    view.subscribe(() => undefined);
    browser.setVisibility("hidden");
    browser.setVisibility("visible");
    await vi.runAllTimersAsync();
    expect(source.cursorReads).toBe(reads);
    expect(source.open).toHaveLength(0);
    vi.useRealTimers();

    source.refuse = null;
    await view.refresh();
    expect(view.current.connection).toBe("live");
    view.close();
  });
});
