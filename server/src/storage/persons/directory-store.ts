// Persons, sessions, engagements and remembered facts: the people and places notifications
// are addressed to.
import type { Severity } from "../../domain/enums.ts";
import { defaultPreferences, type PluginMute, type Preferences, type QuietHours } from "../../domain/preferences.ts";
import { newRowId as newId } from "../sql/row-id.ts";
import { shapedStatement } from "../sql/shaped.ts";
import { forUpdate, sql, sqlFor } from "../sql/sql.ts";
import { decodeRow, type Row } from "../sql/stored-values.ts";
import { toSession } from "../sessions/session-store.ts";
import * as run from "../sql/run.ts";
import type { Database, Tx } from "../connection/database.ts";

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

export class DirectoryStore {
  constructor(private readonly database: Database) {}

  createPerson(name: string) {
    return this.inserted(
      "Person",
      this.database.build
        .insertInto("Person")
        .values({ id: newId(), name, createdAt: this.database.time(new Date()) })
        .returningAll(),
    );
  }
  findPerson(id: string) {
    return run.first(this.database.db, "Person", this.database.build.selectFrom("Person").selectAll().where("id", "=", id));
  }
  /** Whether a person exists: every publish to a person asks. */
  async personExists(id: string): Promise<boolean> {
    return (await run.raw(this.database.db, personFound(this.database.provider, null, { id })!)).length > 0;
  }
  async countPersons(): Promise<number> {
    const [row] = await run.raw(
      this.database.db,
      this.database.build.selectFrom("Person").select((eb) => eb.fn.countAll().as("count")),
    );
    return Number(row!.count);
  }
  setQuietMode(personId: string, quietMode: boolean) {
    return this.updatedPerson(personId, { quietMode });
  }
  /** A person's reader controls: every stream reads them as it opens. */
  async preferences(personId: string): Promise<Preferences> {
    const [raw] = await run.raw(this.database.db, this.preferencesRead(personId));
    return raw ? preferencesOf(decodeRow("Person", raw) as Row<"Person">) : defaultPreferences;
  }
  /**
   * Changes a person's reader controls as `change` says, given the ones stored: read and written
   * in one transaction, the row locked on PostgreSQL (SQLite's writer lock serialises it), so two
   * edits at once (a mute from a card, quiet mode from the companion) both stay. A `change` that
   * throws changes nothing. A missing person fails.
   */
  async changePreferences(personId: string, change: (current: Preferences) => Preferences): Promise<Preferences> {
    return this.database.db.transaction(async (tx) => {
      const [raw] = await run.raw(tx, forUpdate(this.database.provider, this.preferencesRead(personId)));
      if (!raw) throw new Error(`no person ${personId} to update`);
      const next = change(preferencesOf(decodeRow("Person", raw) as Row<"Person">));
      const row = await this.updatedPerson(
        personId,
        {
          quietMode: next.quietMode,
          mutedPlugins: JSON.stringify(next.mutes.map(storedMute)),
          severityFloor: next.severityFloor,
          quietHours: next.quietHours ? JSON.stringify(next.quietHours) : null,
        },
        tx,
      );
      return preferencesOf(row);
    });
  }

  async createSession(input: { harness: string; nativeSessionId: string; ownerPersonId: string }) {
    return toSession(
      await this.inserted(
        "Session",
        this.database.build
          .insertInto("Session")
          .values({ id: newId(), ...input, createdAt: this.database.time(new Date()) })
          .returningAll(),
      ),
    );
  }
  async findSession(id: string) {
    const row = await run.first(this.database.db, "Session", this.database.build.selectFrom("Session").selectAll().where("id", "=", id));
    return row ? toSession(row) : null;
  }
  async findSessionByNativeId(harness: string, nativeSessionId: string) {
    const row = await run.first(
      this.database.db,
      "Session",
      this.database.build.selectFrom("Session").selectAll().where("harness", "=", harness).where("nativeSessionId", "=", nativeSessionId),
    );
    return row ? toSession(row) : null;
  }

  createEngagement(input: { name: string; operatorPersonId: string; createdAt: Date }) {
    return this.inserted(
      "Engagement",
      this.database.build
        .insertInto("Engagement")
        .values({ id: newId(), ...input, createdAt: this.database.time(input.createdAt) })
        .returningAll(),
    );
  }
  findEngagement(id: string) {
    return run.first(this.database.db, "Engagement", this.database.build.selectFrom("Engagement").selectAll().where("id", "=", id));
  }
  /** The engagement, when the person is one of its members (the operator is one). */
  findEngagementOfMember(id: string, personId: string) {
    return run.first(
      this.database.db,
      "Engagement",
      this.database.build
        .selectFrom("Engagement")
        .selectAll()
        .where("id", "=", id)
        .where((eb) =>
          eb.exists(eb.selectFrom("EngagementMember").select("personId").whereRef("engagementId", "=", "Engagement.id").where("personId", "=", personId)),
        ),
    );
  }
  /** A new member joins at `createdAt` (activity in the engagement); a known one changes role only. */
  addEngagementMember(input: { engagementId: string; personId: string; role: string; createdAt: Date }) {
    return this.inserted(
      "EngagementMember",
      this.database.build
        .insertInto("EngagementMember")
        .values({ ...input, createdAt: this.database.time(input.createdAt) })
        .onConflict((conflict) => conflict.columns(["engagementId", "personId"]).doUpdateSet({ role: input.role }))
        .returningAll(),
    );
  }
  rememberFact(fact: FactRow) {
    return this.inserted(
      "RememberedFact",
      this.database.build
        .insertInto("RememberedFact")
        .values({ id: newId(), ...fact, createdAt: this.database.time(fact.createdAt) })
        .returningAll(),
    );
  }
  /** Members of an engagement with their role (the operator's role is OPERATOR). */
  engagementMembers(engagementId: string) {
    return run.rows(
      this.database.db,
      "EngagementMember",
      this.database.build.selectFrom("EngagementMember").select(["personId", "role"]).where("engagementId", "=", engagementId),
    );
  }

  /** The row an INSERT ... RETURNING wrote. */
  private async inserted<T extends "Person" | "Session" | "Engagement" | "EngagementMember" | "RememberedFact">(
    table: T,
    query: Parameters<typeof run.rows>[2],
  ): Promise<Row<T>> {
    return run.only(this.database.db, table, query, `the ${table} row was not written`);
  }

  /** The columns of a person's reader controls. */
  private preferencesRead(personId: string) {
    return this.database.build.selectFrom("Person").select(["quietMode", "mutedPlugins", "severityFloor", "quietHours"]).where("id", "=", personId);
  }

  /** An update of a missing row fails; on the store, or in one of its transactions. */
  private async updatedPerson(
    id: string,
    columns: { quietMode?: boolean; mutedPlugins?: string; severityFloor?: string; quietHours?: string | null },
    on: Tx = this.database.db,
  ): Promise<Row<"Person">> {
    return run.only(on, "Person", this.database.build.updateTable("Person").set(columns).where("id", "=", id).returningAll(), `no person ${id} to update`);
  }
}

/** The preference columns of a person row (JSON ones parsed here and nowhere else). */
export function preferencesOf(row: { quietMode: boolean; mutedPlugins: string; severityFloor: string; quietHours: string | null }): Preferences {
  return {
    quietMode: row.quietMode,
    mutes: (JSON.parse(row.mutedPlugins) as (string | StoredMute)[]).map(muteOf),
    severityFloor: row.severityFloor as Severity,
    quietHours: row.quietHours ? (JSON.parse(row.quietHours) as QuietHours) : null,
  };
}

/**
 * A mute as the `mutedPlugins` JSON column holds it. The column once held plugin names only,
 * muted until unmuted; rows written then are read as such, and rewritten in this form on the
 * next change, so no migration is needed.
 */
interface StoredMute {
  plugin: string;
  until: string | null;
}

function storedMute(mute: PluginMute): StoredMute {
  return { plugin: mute.plugin, until: mute.until ? mute.until.toISOString() : null };
}

function muteOf(stored: string | StoredMute): PluginMute {
  if (typeof stored === "string") return { plugin: stored, until: null };
  return { plugin: stored.plugin, until: stored.until ? new Date(stored.until) : null };
}

/** Asked with every publish to a person: compiled once (sql/shaped.ts). */
const personFound = shapedStatement<null, { id: string }>((provider, _shape, v) =>
  sqlFor(provider).selectFrom("Person").select(sql.lit(1).as("found")).where("id", "=", v.id),
);
