// What the opencode plugin uses of @opencode-ai/plugin's types, for type-checking without the
// harness install (integrations/harnesses). tsconfig.json maps the package to the real
// declarations first and falls back to this file only when they are absent; CI installs them.
/* eslint-disable @typescript-eslint/no-explicit-any -- a stand-in: the real types are checked in CI */
export interface PluginInput {
  client: any;
  directory: string;
}

export interface Hooks {
  event?: (input: { event: any }) => Promise<void>;
  dispose?: () => Promise<void>;
}

export type Plugin = (input: PluginInput) => Promise<Hooks>;
