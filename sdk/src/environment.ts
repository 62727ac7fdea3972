// What a live view watches in a browser: page visibility and the return of the network.
// Kept apart so a server-side render (no document) runs the same view without them.

export interface LiveEnvironment {
  hidden(): boolean;
  /** Returns a function that stops listening. */
  onVisibilityChange(listener: () => void): () => void;
  onOnline(listener: () => void): () => void;
}

interface BrowserGlobals {
  document?: Pick<Document, "visibilityState" | "addEventListener" | "removeEventListener">;
  addEventListener?: (type: "online", listener: () => void) => void;
  removeEventListener?: (type: "online", listener: () => void) => void;
}

/** The page's `document.visibilityState` and `online` events; null where there is no document. */
export function browserEnvironment(globals: BrowserGlobals = globalThis as BrowserGlobals): LiveEnvironment | null {
  const document = globals.document;
  if (!document || typeof document.addEventListener !== "function") return null;
  return {
    hidden: () => document.visibilityState === "hidden",
    onVisibilityChange(listener) {
      document.addEventListener("visibilitychange", listener);
      return () => document.removeEventListener("visibilitychange", listener);
    },
    onOnline(listener) {
      if (typeof globals.addEventListener !== "function") return () => undefined;
      globals.addEventListener("online", listener);
      return () => globals.removeEventListener?.("online", listener);
    },
  };
}
