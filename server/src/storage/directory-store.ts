// Persons, sessions, engagements and remembered facts: the people and places notifications
// are addressed to.
import type { Severity } from "../domain/enums.ts";
import { defaultPreferences, type Preferences, type QuietHours } from "../domain/preferences.ts";
import type { Db } from "./database.ts";
import type { SqliteWriter } from "./sqlite-writer.ts";
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

export class DirectoryStore {
  constructor(
    private readonly db: Db,
    /** SQLite: the connection itself, for the look-up every publish makes (see personExists). */
    private readonly sqlite: SqliteWriter | null = null,
  ) {}

  createPerson(name: string) {
    return this.db.person.create({ data: { name } });
  }
  findPerson(id: string) {
    return this.db.person.findUnique({ where: { id } });
  }
  /** Whether a person exists: raw, since every publish to a person asks and Prisma's query compiler cost more than the look-up. */
  async personExists(id: string): Promise<boolean> {
    // On SQLite one statement on the connection, as NotificationStore's units read (sqlite-unit.ts):
    // Prisma's client was most of what is left of a publish's storage time after those.
    if (this.sqlite) return this.sqlite.prepare(`SELECT 1 AS "found" FROM "Person" WHERE "id" = ?`).get(id) !== undefined;
    const rows = await this.db.$queryRaw<unknown[]>`SELECT 1 AS "found" FROM "Person" WHERE "id" = ${id}`;
    return rows.length > 0;
  }
  countPersons() {
    return this.db.person.count();
  }
  setQuietMode(personId: string, quietMode: boolean) {
    return this.db.person.update({ where: { id: personId }, data: { quietMode } });
  }
  /** A person's reader controls. Every stream reads them as it opens: on SQLite one statement on the connection (see personExists). */
  async preferences(personId: string): Promise<Preferences> {
    if (this.sqlite) {
      const row = this.sqlite.prepare(`SELECT "quietMode", "mutedPlugins", "severityFloor", "quietHours" FROM "Person" WHERE "id" = ?`).get(personId) as
        | { quietMode: bigint | number; mutedPlugins: string; severityFloor: string; quietHours: string | null }
        | undefined;
      return row ? preferencesOf({ ...row, quietMode: Number(row.quietMode) !== 0 }) : defaultPreferences;
    }
    const row = await this.db.person.findUnique({ where: { id: personId } });
    return row ? preferencesOf(row) : defaultPreferences;
  }
  async setPreferences(personId: string, preferences: Preferences): Promise<Preferences> {
    const row = await this.db.person.update({
      where: { id: personId },
      data: {
        quietMode: preferences.quietMode,
        mutedPlugins: JSON.stringify(preferences.mutedPlugins),
        severityFloor: preferences.severityFloor,
        quietHours: preferences.quietHours ? JSON.stringify(preferences.quietHours) : null,
      },
    });
    return preferencesOf(row);
  }

  async createSession(input: { harness: string; nativeSessionId: string; ownerPersonId: string }) {
    return toSession(await this.db.session.create({ data: input }));
  }
  async findSession(id: string) {
    const row = await this.db.session.findUnique({ where: { id } });
    return row ? toSession(row) : null;
  }
  async findSessionByNativeId(harness: string, nativeSessionId: string) {
    const row = await this.db.session.findUnique({ where: { harness_nativeSessionId: { harness, nativeSessionId } } });
    return row ? toSession(row) : null;
  }

  createEngagement(input: { name: string; operatorPersonId: string; createdAt: Date }) {
    return this.db.engagement.create({ data: input });
  }
  findEngagement(id: string) {
    return this.db.engagement.findUnique({ where: { id } });
  }
  /** The engagement, when the person is one of its members (the operator is one). */
  findEngagementOfMember(id: string, personId: string) {
    return this.db.engagement.findFirst({ where: { id, members: { some: { personId } } } });
  }
  /** A new member joins at `createdAt` (activity in the engagement); a known one changes role only. */
  addEngagementMember(input: { engagementId: string; personId: string; role: string; createdAt: Date }) {
    return this.db.engagementMember.upsert({
      where: { engagementId_personId: { engagementId: input.engagementId, personId: input.personId } },
      create: input,
      update: { role: input.role },
    });
  }
  rememberFact(fact: FactRow) {
    return this.db.rememberedFact.create({ data: fact });
  }
  /** Members of an engagement with their role (the operator's role is OPERATOR). */
  engagementMembers(engagementId: string) {
    return this.db.engagementMember.findMany({ where: { engagementId }, select: { personId: true, role: true } });
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
