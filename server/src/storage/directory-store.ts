// Persons, sessions, engagements and remembered facts: the people and places notifications
// are addressed to.
import type { Severity } from "../domain/enums.ts";
import { defaultPreferences, type Preferences, type QuietHours } from "../domain/preferences.ts";
import type { Database, Db } from "./database.ts";
import { newRowId as newId } from "./row-id.ts";
import type { Queries } from "./queries.ts";
import { sql, sqlFor } from "./sql.ts";
import type { SqliteStore } from "./sqlite-store.ts";
import { decodeRow, type Row } from "./stored-values.ts";
import { toSession } from "./session-store.ts";

/** A remembered fact with the date rules extracted from it (domain/date-rules.ts). */
export interface FactRow {
  personId: string;
  content: string;
  engagementId: string | null;
  dateRules: string;
  hasDates: boolean;
  datesVersion: number;
  createdAt: Date;
}

// The two look-ups every publish or stream makes on SQLite, compiled once: only their text is
// kept (the id is bound when they run), so a call costs no statement building at all.
const sqliteText = sqlFor("sqlite");
const PERSON_EXISTS = sqliteText.selectFrom("Person").select(sql.lit(1).as("found")).where("id", "=", "").compile().sql;
const PREFERENCES = sqliteText.selectFrom("Person").select(["quietMode", "mutedPlugins", "severityFloor", "quietHours"]).where("id", "=", "").compile().sql;

export class DirectoryStore {
  private readonly db: Db;
  private readonly q: Queries;
  /** SQLite: the connection itself, for the look-up every publish makes (see personExists). */
  private readonly sqlite: SqliteStore | null;

  constructor(database: Database) {
    this.db = database.db;
    this.q = database.queries;
    this.sqlite = database.sqlite;
  }

  createPerson(name: string) {
    return this.inserted("Person", this.q.build.insertInto("Person").values({ id: newId(), name, createdAt: this.q.time(new Date()) }).returningAll());
  }
  findPerson(id: string) {
    return this.q.first(this.db, "Person", this.q.build.selectFrom("Person").selectAll().where("id", "=", id));
  }
  /** Whether a person exists: every publish to a person asks, so it is one small statement. */
  async personExists(id: string): Promise<boolean> {
    // On SQLite a statement compiled once, run on the connection as NotificationStore's units read (sqlite-unit.ts).
    if (this.sqlite) return this.sqlite.prepare(PERSON_EXISTS).get(id) !== undefined;
    const rows = await this.q.raw(this.db, this.q.build.selectFrom("Person").select(sql.lit(1).as("found")).where("id", "=", id));
    return rows.length > 0;
  }
  async countPersons(): Promise<number> {
    const [row] = await this.q.raw(this.db, this.q.build.selectFrom("Person").select((eb) => eb.fn.countAll().as("count")));
    return Number(row!.count);
  }
  setQuietMode(personId: string, quietMode: boolean) {
    return this.updatedPerson(personId, { quietMode });
  }
  /** A person's reader controls. Every stream reads them as it opens: on SQLite one statement on the connection (see personExists). */
  async preferences(personId: string): Promise<Preferences> {
    if (this.sqlite) {
      const raw = this.sqlite.prepare(PREFERENCES).get(personId) as Record<string, unknown> | undefined;
      return raw ? preferencesOf(decodeRow("Person", raw) as Row<"Person">) : defaultPreferences;
    }
    const row = await this.findPerson(personId);
    return row ? preferencesOf(row) : defaultPreferences;
  }
  async setPreferences(personId: string, preferences: Preferences): Promise<Preferences> {
    const row = await this.updatedPerson(personId, {
      quietMode: preferences.quietMode,
      mutedPlugins: JSON.stringify(preferences.mutedPlugins),
      severityFloor: preferences.severityFloor,
      quietHours: preferences.quietHours ? JSON.stringify(preferences.quietHours) : null,
    });
    return preferencesOf(row);
  }

  async createSession(input: { harness: string; nativeSessionId: string; ownerPersonId: string }) {
    return toSession(await this.inserted("Session", this.q.build.insertInto("Session").values({ id: newId(), ...input, createdAt: this.q.time(new Date()) }).returningAll()));
  }
  async findSession(id: string) {
    const row = await this.q.first(this.db, "Session", this.q.build.selectFrom("Session").selectAll().where("id", "=", id));
    return row ? toSession(row) : null;
  }
  async findSessionByNativeId(harness: string, nativeSessionId: string) {
    const row = await this.q.first(this.db, "Session", this.q.build.selectFrom("Session").selectAll().where("harness", "=", harness).where("nativeSessionId", "=", nativeSessionId));
    return row ? toSession(row) : null;
  }

  createEngagement(input: { name: string; operatorPersonId: string; createdAt: Date }) {
    return this.inserted("Engagement", this.q.build.insertInto("Engagement").values({ id: newId(), ...input, createdAt: this.q.time(input.createdAt) }).returningAll());
  }
  findEngagement(id: string) {
    return this.q.first(this.db, "Engagement", this.q.build.selectFrom("Engagement").selectAll().where("id", "=", id));
  }
  /** The engagement, when the person is one of its members (the operator is one). */
  findEngagementOfMember(id: string, personId: string) {
    return this.q.first(
      this.db,
      "Engagement",
      this.q.build
        .selectFrom("Engagement")
        .selectAll()
        .where("id", "=", id)
        .where((eb) => eb.exists(eb.selectFrom("EngagementMember").select("personId").whereRef("engagementId", "=", "Engagement.id").where("personId", "=", personId))),
    );
  }
  /** A new member joins at `createdAt` (activity in the engagement); a known one changes role only. */
  addEngagementMember(input: { engagementId: string; personId: string; role: string; createdAt: Date }) {
    return this.inserted(
      "EngagementMember",
      this.q.build
        .insertInto("EngagementMember")
        .values({ ...input, createdAt: this.q.time(input.createdAt) })
        .onConflict((conflict) => conflict.columns(["engagementId", "personId"]).doUpdateSet({ role: input.role }))
        .returningAll(),
    );
  }
  rememberFact(fact: FactRow) {
    return this.inserted("RememberedFact", this.q.build.insertInto("RememberedFact").values({ id: newId(), ...fact, createdAt: this.q.time(fact.createdAt) }).returningAll());
  }
  /** Members of an engagement with their role (the operator's role is OPERATOR). */
  engagementMembers(engagementId: string) {
    return this.q.rows(this.db, "EngagementMember", this.q.build.selectFrom("EngagementMember").select(["personId", "role"]).where("engagementId", "=", engagementId));
  }

  /** The row an INSERT ... RETURNING wrote. */
  private async inserted<T extends "Person" | "Session" | "Engagement" | "EngagementMember" | "RememberedFact">(table: T, query: Parameters<Queries["rows"]>[2]): Promise<Row<T>> {
    return this.q.only(this.db, table, query, `the ${table} row was not written`);
  }

  /** An update of a missing row fails. */
  private async updatedPerson(id: string, columns: { quietMode?: boolean; mutedPlugins?: string; severityFloor?: string; quietHours?: string | null }): Promise<Row<"Person">> {
    return this.q.only(this.db, "Person", this.q.build.updateTable("Person").set(columns).where("id", "=", id).returningAll(), `no person ${id} to update`);
  }
}

/** The preference columns of a person row (JSON ones parsed here and nowhere else). */
export function preferencesOf(row: { quietMode: boolean; mutedPlugins: string; severityFloor: string; quietHours: string | null }): Preferences {
  return {
    quietMode: row.quietMode,
    mutedPlugins: JSON.parse(row.mutedPlugins) as string[],
    severityFloor: row.severityFloor as Severity,
    quietHours: row.quietHours ? (JSON.parse(row.quietHours) as QuietHours) : null,
  };
}
