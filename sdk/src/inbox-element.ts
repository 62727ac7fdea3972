// @herald/sdk/inbox-element: importing it defines <herald-inbox server="…" token="…">, the
// dashboard's bell and inbox for another application's page, in a shadow root themed through
// --herald-* custom properties (ui/theme.css). The build also emits it as one self-contained
// module, dist/herald-inbox.js, for a plain page's <script type="module">.
import { mount, unmount } from "svelte";
import Inbox from "./ui/Inbox.svelte";
import theme from "./ui/theme.css?inline";
import tones from "./ui/tones.css?inline";

/** The host box: the bell sits in the page's flow; the page's own background stays. */
const HOST = `:host { display: inline-block; background: none; color: var(--text); font-family: var(--herald-font, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif); line-height: 1.5; overflow-wrap: break-word; } :host([hidden]) { display: none; }`;

/** On a server (SSR of a page that uses the Svelte wrapper) there is no HTMLElement to extend, and nothing to define. */
const ElementBase = (typeof HTMLElement === "undefined" ? class {} : HTMLElement) as typeof HTMLElement;

export class HeraldInboxElement extends ElementBase {
  static readonly observedAttributes = ["server", "token"];
  #server: string | null = null;
  #token: string | null = null;
  #app: Record<string, unknown> | null = null;
  #mounted: { server: string; token: string } | null = null;

  /** The GraphQL URL, e.g. https://herald.example.com/graphql. */
  get server(): string | null {
    return this.#server ?? this.getAttribute("server");
  }
  set server(value: string | null) {
    this.#server = value;
    this.#render();
  }

  /** A person token (herald_pt_…), minted by the application with issuePersonToken. */
  get token(): string | null {
    return this.#token ?? this.getAttribute("token");
  }
  set token(value: string | null) {
    this.#token = value;
    this.#render();
  }

  connectedCallback(): void {
    this.#render();
  }

  disconnectedCallback(): void {
    this.#teardown();
  }

  attributeChangedCallback(): void {
    this.#render();
  }

  #render(): void {
    const server = this.server;
    const token = this.token;
    if (!this.isConnected || !server || !token) return this.#teardown();
    if (this.#mounted?.server === server && this.#mounted.token === token) return;
    this.#teardown();
    const root = this.shadowRoot ?? this.attachShadow({ mode: "open" });
    const style = document.createElement("style");
    style.textContent = `${theme}\n${tones}\n${HOST}`;
    root.replaceChildren(style);
    // A new server or token is a new person or place: a new inbox, nothing carried over.
    this.#app = mount(Inbox, { target: root, props: { server, token } });
    this.#mounted = { server, token };
  }

  #teardown(): void {
    if (this.#app) void unmount(this.#app);
    this.#app = null;
    this.#mounted = null;
  }
}

if (typeof customElements !== "undefined" && !customElements.get("herald-inbox")) customElements.define("herald-inbox", HeraldInboxElement);

declare global {
  interface HTMLElementTagNameMap {
    "herald-inbox": HeraldInboxElement;
  }
}
