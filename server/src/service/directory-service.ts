// Persons, sessions, engagements and remembered facts, as producers manage them and persons
// read them.
import { z } from "zod";
import { ForbiddenError, ValidationError } from "../domain/errors.ts";
import { limits } from "../domain/limits.ts";
import { mutesInForce, type PluginMute, type Preferences, validatePreferencesUpdate, withMute, withoutMute } from "../domain/preferences.ts";
import { parse, validateName } from "../domain/validation.ts";
import type { Clock } from "../domain/clock.ts";
import type { EventBus } from "../events/bus.ts";
import type { DirectoryStore } from "../storage/persons/directory-store.ts";
import { mustHaveEngagement, mustHavePerson } from "./existence.ts";
import { personTimeZone } from "../domain/date-rules.ts";
import { newFact } from "./facts.ts";
import { ownedBy, type PluginScope } from "./producer-rights.ts";

const identifier = z.string().trim().min(1, "must not be empty").max(limits.shortTextLength, `must be at most ${limits.shortTextLength} characters`);

export class DirectoryService {
  constructor(
    private readonly store: DirectoryStore,
    private readonly bus: EventBus,
    private readonly clock: Clock,
    /** HERALD_TIME_ZONE: the zone of a person without one of their own. */
    private readonly timeZone = "UTC",
  ) {}

  createPerson(input: { name: unknown }) {
    return this.store.createPerson(validateName(input.name));
  }

  findPerson(id: string) {
    return this.store.findPerson(id);
  }

  countPersons() {
    return this.store.countPersons();
  }

  /**
   * Open streams of the person (on any instance) hold or release new notifications, and every
   * preferencesEvents stream of the person hears the new state. A person sets their own; a
   * producer (the companion, asked in conversation) sets anyone's.
   */
  async setQuietMode(personId: string, enabled: boolean) {
    await mustHavePerson(this.store, personId, "personId");
    const person = await this.store.setQuietMode(personId, enabled);
    this.bus.publish({ kind: "quiet", personId, quietMode: person.quietMode });
    return person;
  }

  async quietMode(personId: string): Promise<boolean> {
    return (await this.store.findPerson(personId))?.quietMode ?? false;
  }

  preferences(personId: string): Promise<Preferences> {
    return this.store.preferences(personId);
  }

  /**
   * The person's own reader controls (fields given replace, absent ones stay). Like quiet mode,
   * every open stream and preferencesEvents stream of the person, on any instance, hears of it.
   */
  async updatePreferences(personId: string, input: unknown): Promise<Preferences> {
    await mustHavePerson(this.store, personId, "personId");
    return this.changePreferences(personId, (current) => validatePreferencesUpdate(current, input, this.clock.now()));
  }

  /** Mutes a source plugin for the person until `until` (null: until unmuted); heard like updatePreferences. */
  async mutePlugin(personId: string, plugin: unknown, until: unknown): Promise<Preferences> {
    await mustHavePerson(this.store, personId, "personId");
    return this.changePreferences(personId, (current) => withMute(current, plugin, until, this.clock.now()));
  }

  async unmutePlugin(personId: string, plugin: unknown): Promise<Preferences> {
    await mustHavePerson(this.store, personId, "personId");
    return this.changePreferences(personId, (current) => withoutMute(current, plugin, this.clock.now()));
  }

  /** The mutes in force by the server's clock: a mute that has ended is neither listed nor applied. */
  mutesInForce(preferences: Preferences): PluginMute[] {
    return mutesInForce(preferences, this.clock.now());
  }

  /** Validation errors thrown by `change` leave everything as it was. */
  private async changePreferences(personId: string, change: (current: Preferences) => Preferences): Promise<Preferences> {
    const stored = await this.store.changePreferences(personId, change);
    this.bus.publish({ kind: "quiet", personId, quietMode: stored.quietMode });
    return stored;
  }

  /**
   * Idempotent for the same owner, so a harness hook may register its session on every run.
   * `ownerField` names the input field that gave the owner (for the caller's ValidationError).
   * A key bound to a plugin creates sessions of the harness named like it only (as reportExchange
   * with a personId already does): a hook with the recommended key registers its own session.
   */
  async createSession(input: { harness: unknown; sessionId: unknown; ownerPersonId: string }, ownerField = "ownerPersonId", scope: PluginScope = null) {
    const harness = parse(identifier, input.harness, "harness");
    if (scope !== null && scope !== harness)
      throw new ForbiddenError(`createSession with this producer key is limited to harness "${scope}" (an admin key creates any)`);
    const nativeSessionId = parse(identifier, input.sessionId, "sessionId");
    await mustHavePerson(this.store, input.ownerPersonId, ownerField);
    const existing = await this.store.findSessionByNativeId(harness, nativeSessionId);
    if (existing) {
      if (existing.ownerPersonId !== input.ownerPersonId) {
        throw new ValidationError("sessionId", "sessionId: already registered to another person");
      }
      return existing;
    }
    return this.store.createSession({ harness, nativeSessionId, ownerPersonId: input.ownerPersonId });
  }

  /**
   * A person sees only sessions they own; an admin key sees every session, and a key bound to a
   * plugin only its own harness's (a session belongs to the harness that reports it), with the
   * same null for another harness's session as for an absent one, so it cannot probe.
   */
  async findSession(harness: string, nativeSessionId: string, viewerPersonId: string | null, scope: PluginScope = null) {
    if (!ownedBy(scope, harness)) return null;
    const session = await this.store.findSessionByNativeId(harness, nativeSessionId);
    if (!session || (viewerPersonId !== null && session.ownerPersonId !== viewerPersonId)) return null;
    return session;
  }

  findSessionById(id: string) {
    return this.store.findSession(id);
  }

  /** The person's own session by Herald's id; null for any other (absent or not theirs alike). */
  async sessionOf(personId: string, id: string) {
    const session = await this.store.findSession(id);
    return session && session.ownerPersonId === personId ? session : null;
  }

  async createEngagement(input: { name: unknown; operatorPersonId: string }) {
    const name = validateName(input.name);
    await mustHavePerson(this.store, input.operatorPersonId, "operatorPersonId");
    const createdAt = this.clock.now();
    const engagement = await this.store.createEngagement({ name, operatorPersonId: input.operatorPersonId, createdAt });
    await this.store.addEngagementMember({ engagementId: engagement.id, personId: input.operatorPersonId, role: "OPERATOR", createdAt });
    return engagement;
  }

  findEngagement(id: string) {
    return this.store.findEngagement(id);
  }

  /** An engagement the person is a member of; null for any other (absent or not theirs alike). */
  engagementOf(personId: string, id: string) {
    return this.store.findEngagementOfMember(id, personId);
  }

  async addEngagementMember(input: { engagementId: string; personId: string; role?: string | null }) {
    await mustHaveEngagement(this.store, input.engagementId, "engagementId");
    await mustHavePerson(this.store, input.personId, "personId");
    const role = input.role ? parse(identifier, input.role, "role").toUpperCase() : "CONTRIBUTOR";
    return this.store.addEngagementMember({ engagementId: input.engagementId, personId: input.personId, role, createdAt: this.clock.now() });
  }

  /** Dates in the fact are extracted now, once, for the scanner (domain/date-rules.ts). */
  async rememberFact(input: { personId: string; content: unknown; engagementId?: string | null }) {
    await mustHavePerson(this.store, input.personId, "personId");
    if (input.engagementId) await mustHaveEngagement(this.store, input.engagementId, "engagementId");
    const content = parse(z.string().trim().min(1, "must not be empty").max(limits.bodyLength), input.content, "content");
    const zone = personTimeZone((await this.store.preferences(input.personId)).quietHours, this.timeZone);
    return this.store.rememberFact(newFact(input.personId, content, input.engagementId ?? null, this.clock.now(), zone));
  }
}
