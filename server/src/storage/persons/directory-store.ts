// Persons, sessions, engagements and remembered facts: the people and places notifications
// are addressed to.
import type { Severity } from "../../domain/enums.ts";
import { defaultPreferences, type Preferences, type QuietHours } from "../../domain/preferences.ts";
import { newRowId as newId } from "../sql/row-id.ts";
import { keptStatement, type Queries } from "../sql/queries.ts";
import { sql } from "../sql/sql.ts";
import { StoreBase } from "../sql/store-base.ts";
import { decodeRow, type Row } from "../sql/stored-values.ts";
import { toSession } from "../sessions/session-store.ts";

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

// The two look-ups every publish or stream makes, compiled once (the id is bound when they run).
const PERSON_EXISTS = keptStatement((b, id: string) => b.selectFrom("Person").select(sql.lit(1).as("found")).where("id", "=", id), "");
const PREFERENCES = keptStatement((b, id: string) => b.selectFrom("Person").select(["quietMode", "mutedPlugins", "severityFloor", "quietHours"]).where("id", "=", id), "");

export class DirectoryStore extends StoreBase {
  createPerson(name: string) {
    return this.inserted("Person", this.q.build.insertInto("Person").values({ id: newId(), name, createdAt: this.q.time(new Date()) }).returningAll());
  }
  findPerson(id: string) {
    return this.q.first(this.db, "Person", this.q.build.selectFrom("Person").selectAll().where("id", "=", id));
  }
  /** Whether a person exists: every publish to a person asks. */
  async personExists(id: string): Promise<boolean> {
    return (await this.q.kept(this.db, PERSON_EXISTS, id)).length > 0;
  }
  async countPersons(): Promise<number> {
    const [row] = await this.q.raw(this.db, this.q.build.selectFrom("Person").select((eb) => eb.fn.countAll().as("count")));
    return Number(row!.count);
  }
  setQuietMode(personId: string, quietMode: boolean) {
    return this.updatedPerson(personId, { quietMode });
  }
  /** A person's reader controls: every stream reads them as it opens. */
  async preferences(personId: string): Promise<Preferences> {
    const [raw] = await this.q.kept(this.db, PREFERENCES, personId);
    return raw ? preferencesOf(decodeRow("Person", raw) as Row<"Person">) : defaultPreferences;
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
