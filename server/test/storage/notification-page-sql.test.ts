// The list's one-statement page reads columns the models define: its lists of time and integer
// columns must follow prisma/models.prisma, or a new column would reach the domain as raw text.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../src/storage/connection/database-url.ts";
import { mergePage, type PageRow, toPageRow } from "../../src/storage/notifications/notification-page-sql.ts";
import { tableColumns } from "../../src/storage/generated/columns.ts";

const models = readFileSync(join(repoRoot, "prisma", "models.prisma"), "utf8");
function columnsOf(model: string, type: string): string[] {
  const body = models.match(new RegExp(`^model ${model} \\{([\\s\\S]*?)^\\}`, "m"))![1]!;
  return [...body.matchAll(new RegExp(`^\\s+(\\w+)\\s+${type}\\??(\\s|$)`, "gm"))].map((m) => m[1]!).sort();
}

describe("the list page's raw columns", () => {
  it("know every DateTime and Int column of Notification and NotificationReceipt (generated from the models)", () => {
    const ofKind = (table: keyof typeof tableColumns, kind: string) =>
      Object.entries(tableColumns[table].kinds as Record<string, string>)
        .filter(([, k]) => k === kind)
        .map(([c]) => c)
        .sort();
    expect(ofKind("Notification", "time")).toEqual(columnsOf("Notification", "DateTime"));
    expect(ofKind("Notification", "integer")).toEqual(columnsOf("Notification", "Int"));
    expect(ofKind("NotificationReceipt", "time")).toEqual(columnsOf("NotificationReceipt", "DateTime"));
  });

  it("types a SQLite row (ISO text, numbers) and splits off the receipt, or none", () => {
    const raw = { id: "n1", createdAt: "2026-11-30T20:41:52.558+00:00", seenAt: null, revision: 2n, lockVersion: 0, r_notificationId: null, r_updatedAt: null };
    const { row, receipt } = toPageRow(raw);
    expect(row.createdAt).toEqual(new Date("2026-11-30T20:41:52.558Z"));
    expect([row.seenAt, row.revision, receipt]).toEqual([null, 2, null]);
    const shared = toPageRow({ ...raw, r_notificationId: "n1", r_personId: "p1", r_seenAt: "2026-11-30T21:00:00.000+00:00", r_updatedAt: new Date(0) });
    expect(shared.receipt).toMatchObject({ notificationId: "n1", personId: "p1", seenAt: new Date("2026-11-30T21:00:00.000Z"), updatedAt: new Date(0) });
    expect(Object.keys(shared.row)).not.toContain("r_seenAt");
  });

  it("can tell the receipt's columns by their prefix: no column of Notification starts with r_", () => {
    expect(tableColumns.Notification.columns.filter((column) => column.startsWith("r_"))).toEqual([]);
  });
});

describe("a page merged from its sources' rows", () => {
  const at = (ms: number, id: string) => ({ row: { id, createdAt: new Date(ms) }, receipt: null }) as unknown as PageRow;
  const ids = (rows: PageRow[]) => rows.map((r) => r.row.id);
  const own = [at(5, "e"), at(3, "c2"), at(1, "a")];
  const shared = [at(4, "d"), at(3, "c1"), at(2, "b")];

  it("is newest first, ties by id descending as the statements order them, cut at the page size", () => {
    expect(ids(mergePage([own, shared], false, 4))).toEqual(["e", "d", "c2", "c1"]);
    expect(ids(mergePage([own, shared], false, 10))).toEqual(["e", "d", "c2", "c1", "b", "a"]);
  });

  it("is oldest first when inverted (a page before a cursor), each source then ascending", () => {
    expect(ids(mergePage([[...own].reverse(), [...shared].reverse()], true, 3))).toEqual(["a", "b", "c1"]);
  });

  it("is one source's rows as they came when there is one source", () => {
    expect(ids(mergePage([own], false, 2))).toEqual(["e", "c2"]);
  });
});
