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
});
