// @herald/sdk/svelte: live views as Svelte stores (svelte-store.ts), and the inbox of
// <herald-inbox> as a Svelte component.
import type { Component } from "svelte";
import InboxComponent from "./ui/InboxElement.svelte";

export * from "./svelte-store.ts";

/** `<herald-inbox>` as a Svelte component: the bell, and on click the live inbox, in its shadow root. */
export const Inbox = InboxComponent as unknown as Component<{ server: string; token: string }>;
