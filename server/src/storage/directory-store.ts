// Persons, sessions, engagements and remembered facts: the people and places notifications
// are addressed to.
import type { Db } from "./database.ts";
import { toSession } from "./session-store.ts";

export class DirectoryStore {
  constructor(private readonly db: Db) {}

  createPerson(name: string) {
    return this.db.person.create({ data: { name } });
  }
  findPerson(id: string) {
    return this.db.person.findUnique({ where: { id } });
  }
  countPersons() {
    return this.db.person.count();
  }
  setQuietMode(personId: string, quietMode: boolean) {
    return this.db.person.update({ where: { id: personId }, data: { quietMode } });
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

  createEngagement(input: { name: string; operatorPersonId: string }) {
    return this.db.engagement.create({ data: input });
  }
  findEngagement(id: string) {
    return this.db.engagement.findUnique({ where: { id } });
  }
  /** The engagement, when the person is one of its members (the operator is one). */
  findEngagementOfMember(id: string, personId: string) {
    return this.db.engagement.findFirst({ where: { id, members: { some: { personId } } } });
  }
  addEngagementMember(input: { engagementId: string; personId: string; role: string }) {
    return this.db.engagementMember.upsert({
      where: { engagementId_personId: { engagementId: input.engagementId, personId: input.personId } },
      create: input,
      update: { role: input.role },
    });
  }
  rememberFact(personId: string, content: string) {
    return this.db.rememberedFact.create({ data: { personId, content } });
  }
}
