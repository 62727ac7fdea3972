// What the SDK's TypeScript build cannot read itself: Svelte components (compiled by Svelte,
// checked by svelte-check) and stylesheets inlined as text by Vite for a shadow root.
declare module "*.svelte" {
  import type { Component } from "svelte";
  const component: Component<Record<string, unknown>>;
  export default component;
}
declare module "*.css?inline" {
  const css: string;
  export default css;
}
