// What the Pi extension uses of @mariozechner/pi-coding-agent's types, for type-checking without
// the harness install (integrations/harnesses). tsconfig.json maps the package to the real
// declarations first and falls back to this file only when they are absent; CI installs them.
/* eslint-disable @typescript-eslint/no-explicit-any -- a stand-in: the real types are checked in CI */
export interface ExtensionContext {
  hasUI: boolean;
  cwd: string;
  ui: { setTitle(title: string): void };
  sessionManager: { getSessionId(): string; getSessionFile(): string | undefined; getBranch(): any[]; getEntries(): any[] };
}

export interface ExtensionAPI {
  on(event: string, handler: (event: any, ctx: ExtensionContext) => unknown): void;
  appendEntry(customType: string, data?: unknown): void;
  setSessionName(name: string): void;
}
