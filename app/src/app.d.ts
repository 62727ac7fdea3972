// See https://svelte.dev/docs/kit/types#app.d.ts
declare global {
  namespace App {
    interface Locals {
      /** The person token from the httpOnly cookie, or null when signed out. */
      token: string | null;
    }
    interface Error {
      message: string;
      /** What the person can do about it, shown under the message. */
      hint?: string;
    }
  }
}

export {};
