// @herald/sdk/svelte: live views as Svelte stores (svelte-store.ts), and the inbox of
// <herald-inbox> as a Svelte component.
import type { Component } from "svelte";
import InboxComponent from "./ui/Inbox.svelte";

export * from "./svelte-store.ts";

/** The inbox of `<herald-inbox>` as a Svelte component: the bell, and on click the live inbox. */
export const Inbox = InboxComponent as unknown as Component<{ server: string; token: string }>;
