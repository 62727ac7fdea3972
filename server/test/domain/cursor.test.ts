import { describe, expect, it } from "vitest";
import { ValidationError } from "../../src/domain/errors.ts";
import { CursorCodec } from "../../src/service/cursor.ts";

describe("cursors", () => {
  const codec = new CursorCodec("secret");
  const position = { createdAt: new Date("2026-01-01T00:00:00.123Z"), id: "abc" };

  it("round-trips a position for the person it was issued to", () => {
    expect(codec.decode("p1", codec.encode("p1", position), "after")).toEqual(position);
  });

  it("rejects a cursor issued to another person, signed with another secret, or malformed", () => {
    const cursor = codec.encode("p1", position);
    expect(() => codec.decode("p2", cursor, "after")).toThrow(ValidationError);
    expect(() => new CursorCodec("other").decode("p1", cursor, "before")).toThrow(/before/);
    expect(() => codec.decode("p1", "x.y.z", "after")).toThrow(ValidationError);
    expect(() => codec.decode("p1", "", "after")).toThrow(ValidationError);
  });

  it("round-trips an event position with and without a quiet hold, and refuses an inconsistent hold", () => {
    expect(codec.decodeSeq("p1", codec.encodeSeq("p1", 42), "after")).toEqual({ seq: 42, hold: null });
    const held = { seq: 42, hold: { from: 30, through: 35 } };
    expect(codec.decodeSeq("p1", codec.encodeSeq("p1", held.seq, held.hold), "after")).toEqual(held);
    expect(() => codec.decodeSeq("p2", codec.encodeSeq("p1", held.seq, held.hold), "after")).toThrow(ValidationError);
    // A hold that ends after the position, or starts after it was released through, is no position of ours.
    expect(() => codec.decodeSeq("p1", codec.encodeSeq("p1", 42, { from: 30, through: 50 }), "after")).toThrow(/malformed/);
    expect(() => codec.decodeSeq("p1", codec.encodeSeq("p1", 42, { from: 36, through: 35 }), "after")).toThrow(/malformed/);
  });
});
