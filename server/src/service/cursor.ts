// Opaque pagination cursors: a keyset position signed with the server secret and bound to the
// person it was issued to, so a cursor is useless to anyone else and cannot be forged.
import { createHmac, timingSafeEqual } from "node:crypto";
import { ValidationError } from "../domain/errors.ts";
import type { Position } from "../domain/filter.ts";
import type { StreamPosition } from "../domain/stream-position.ts";

// Not a possible person id (those are cuids), so no person's cursor verifies as a producer's.
const INVOCATION_AUDIENCE = "\u0000producers";

export class CursorCodec {
  constructor(private readonly secret: string) {}

  encode(personId: string, position: Position): string {
    const payload = Buffer.from(JSON.stringify([position.createdAt.getTime(), position.id])).toString("base64url");
    return `${payload}.${this.sign(personId, payload)}`;
  }

  decode(personId: string, cursor: string, field: string): Position {
    const payload = this.verifiedPayload(personId, cursor, field, "a cursor");
    try {
      const [time, id] = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as [number, string];
      if (!Number.isFinite(time) || typeof id !== "string") throw new Error("shape");
      return { createdAt: new Date(time), id };
    } catch {
      throw new ValidationError(field, `${field}: malformed cursor`);
    }
  }

  /**
   * Event-stream cursors: a sequence number, signed in their own domain ("e") for the person; a
   * stream that holds notifications for quiet mode adds where its hold stands (realtime/quiet-hold.ts).
   */
  encodeSeq(personId: string, seq: number, hold: StreamPosition["hold"] = null): string {
    const payload = `e${[seq, ...(hold ? [hold.through, hold.from] : [])].map((n) => n.toString(36)).join("_")}`;
    return `${payload}.${this.sign(personId, payload)}`;
  }

  decodeSeq(personId: string, cursor: string, field: string): StreamPosition {
    const payload = this.verifiedPayload(personId, cursor, field, "an event cursor");
    if (!payload.startsWith("e")) throw new ValidationError(field, `${field}: not an event cursor issued to this caller`);
    const numbers = payload
      .slice(1)
      .split("_")
      .map((part) => Number.parseInt(part, 36));
    const [seq, through, from] = numbers;
    const valid = (n: number | undefined): n is number => n !== undefined && Number.isSafeInteger(n) && n >= 0;
    if (!valid(seq) || (numbers.length !== 1 && numbers.length !== 3)) throw new ValidationError(field, `${field}: malformed cursor`);
    if (numbers.length === 1) return { seq, hold: null };
    if (!valid(through) || !valid(from) || !(from <= through && through <= seq)) throw new ValidationError(field, `${field}: malformed cursor`);
    return { seq, hold: { from, through } };
  }

  /**
   * Action-invocation cursors: a position in the deployment-wide invocation sequence, signed in
   * their own domain ("i"). Producers are not scoped to plugins, so one audience ("producers")
   * binds them all: a stored cursor survives a new key or another plugin filter.
   */
  encodeInvocationSeq(seq: number): string {
    const payload = `i${seq.toString(36)}`;
    return `${payload}.${this.sign(INVOCATION_AUDIENCE, payload)}`;
  }

  decodeInvocationSeq(cursor: string, field: string): number {
    const payload = this.verifiedPayload(INVOCATION_AUDIENCE, cursor, field, "an invocation cursor");
    if (!payload.startsWith("i")) throw new ValidationError(field, `${field}: not an invocation cursor`);
    const seq = Number.parseInt(payload.slice(1), 36);
    if (!Number.isSafeInteger(seq) || seq < 0) throw new ValidationError(field, `${field}: malformed cursor`);
    return seq;
  }

  /** The payload of a well-formed cursor signed for this person, or a ValidationError on `field`. */
  private verifiedPayload(personId: string, cursor: string, field: string, what: string): string {
    const [payload, signature, extra] = cursor.split(".");
    if (!payload || !signature || extra !== undefined || !this.verify(personId, payload, signature)) {
      throw new ValidationError(field, `${field}: not ${what} issued to this caller`);
    }
    return payload;
  }

  private sign(personId: string, payload: string): string {
    return createHmac("sha256", this.secret).update(`${personId}\n${payload}`).digest("base64url");
  }

  private verify(personId: string, payload: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(personId, payload));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
