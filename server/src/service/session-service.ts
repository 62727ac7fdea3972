// Agent sessions reporting completed exchanges: count the exchange and decide on naming (one
// transaction), publish the completion notification through the notification service, then
// refresh the label in the background. Labeling never delays or blocks the notification.
import { isTerminal } from "../domain/enums.ts";
import { ValidationError } from "../domain/errors.ts";
import type { NotificationRecord } from "../domain/notification.ts";
import {
  boundedMaterial,
  completionNotification,
  decideExchange,
  decideLabelResult,
  type LabelState,
  type Material,
  projectOf,
  type SessionRecord,
} from "../domain/session-labels.ts";
import { validateExchange, type ValidExchange } from "../domain/exchange-validation.ts";
import type { Logger } from "../logger.ts";
import { LabelStateUnavailable, type SessionStore } from "../storage/sessions/session-store.ts";
import type { DirectoryService } from "./directory-service.ts";
import type { Labeler } from "./labelers/index.ts";
import type { NotificationService } from "./notification-service.ts";
import { type HeraldObserver, noObserver } from "../events/observer.ts";
import { assertOwnPlugin } from "./plugin-scope.ts";
import type { PluginScope } from "./producer-rights.ts";

/** The key of a session's completion notification: one stream per session, updated in place. */
export const COMPLETION_KEY = "exchange";
/** The fixed log category of every case where a label could not be read, made or stored. */
export const LABELS_UNAVAILABLE = "labels unavailable";

export interface ReportedExchange {
  session: SessionRecord;
  /**
   * null for a retried completion id: it was accepted before, and nothing changed now (unless
   * its first report failed before publishing: then the notification is published now).
   */
  notification: NotificationRecord | null;
  duplicate: boolean;
}

interface NamingJob {
  session: SessionRecord;
  generation: bigint;
  material: Material;
  currentLabel: string;
  project: string;
  /** The completion notification as published, titled with the label known before (set once published). */
  shown?: { id: string; title: string; harness: string; cwd: string; assistantText: string };
}

export class SessionService {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly store: SessionStore,
    private readonly directory: DirectoryService,
    private readonly notifications: NotificationService,
    private readonly labeler: Labeler,
    private readonly logger: Logger,
    private readonly observer: HeraldObserver = noObserver,
  ) {}

  /** `scope`: a key bound to a plugin reports only its own harness's exchanges (the notification's source plugin is the harness). */
  async reportExchange(input: unknown, scope: PluginScope = null): Promise<ReportedExchange> {
    const exchange = validateExchange(input);
    assertOwnPlugin(scope, exchange.harness, "harness");
    const session = await this.sessionOf(exchange);
    // The label the notification shows: the one known before this exchange (or the cwd fallback).
    let label = session.label;
    let naming: NamingJob | null = null;
    let duplicate = false;
    if (exchange.completionId !== null) {
      const counted = await this.count(session, exchange, exchange.completionId);
      if (counted === "duplicate") return { session, notification: null, duplicate: true };
      // A retry of an exchange counted before whose notification never went out: publish it now.
      if (counted === "unnotified") duplicate = true;
      else if (counted) {
        label = counted.prior.label;
        naming = counted.naming;
      }
    }
    const { title, body } = completionNotification({ harness: exchange.harness, label, cwd: exchange.cwd, assistantText: exchange.assistantText });
    const notification = await this.notifications.publish({
      scope: "SESSION",
      sessionId: session.id,
      key: COMPLETION_KEY,
      title,
      body,
      source: { plugin: exchange.harness, subsystem: "exchange" },
      trigger: { type: "EVENT_BASED", ref: exchange.completionId },
    });
    if (exchange.completionId !== null) await this.store.markNotified(session.id, exchange.completionId, notification.id);
    if (naming) {
      naming.shown = { id: notification.id, title, harness: exchange.harness, cwd: exchange.cwd, assistantText: exchange.assistantText };
      this.inBackground(this.refreshLabel(naming));
    }
    const current = (await this.directory.findSessionById(session.id)) ?? session;
    return { session: current, notification, duplicate };
  }

  /** Resolves once every label refresh started so far has finished (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private async sessionOf(exchange: ValidExchange): Promise<SessionRecord> {
    if (exchange.personId !== null) {
      return this.directory.createSession({ harness: exchange.harness, sessionId: exchange.sessionId, ownerPersonId: exchange.personId }, "personId");
    }
    const session = await this.directory.findSession(exchange.harness, exchange.sessionId, null);
    if (!session) throw new ValidationError("sessionId", "sessionId: no such session of this harness (give personId to create it)");
    return session;
  }

  /**
   * Counts the exchange. Returns "duplicate" for a retried completion id ("unnotified" when its
   * first report failed before its notification was published), the prior state and
   * any naming to do for a counted one, or null when the label state is unavailable (the
   * notification still goes out, with the label known before).
   */
  private async count(session: SessionRecord, exchange: ValidExchange, completionId: string) {
    const material = boundedMaterial(exchange.userText, exchange.assistantText);
    try {
      const { prior, decision, unnotified } = await this.store.accept(session.id, completionId, (state, seen) =>
        decideExchange(state, completionId, seen, material),
      );
      if (decision.kind === "duplicate") return unnotified ? ("unnotified" as const) : ("duplicate" as const);
      if (decision.kind === "exhausted") {
        this.labelsUnavailable(session, "the source generation is at its maximum");
        return { prior, naming: null };
      }
      const naming: NamingJob | null = decision.naming && {
        session,
        generation: decision.naming.generation,
        material,
        currentLabel: prior.label,
        project: projectOf(exchange.cwd),
      };
      return { prior: prior as LabelState, naming };
    } catch (error) {
      this.labelsUnavailable(session, error instanceof LabelStateUnavailable ? error.message : `label store: ${(error as Error).message}`);
      return null;
    }
  }

  private async refreshLabel(job: NamingJob): Promise<void> {
    const { session, generation } = job;
    try {
      const answer = await this.labeler.label({
        harness: session.harness,
        currentLabel: job.currentLabel,
        project: job.project,
        material: job.material,
      });
      const outcome = await this.store.recordLabel(session.id, (state) => decideLabelResult(state, generation, answer));
      if (outcome.kind === "write") await this.retitle(job, outcome.label);
      if (outcome.kind === "invalid") this.labelsUnavailable(session, `${this.labeler.name} labeler: ${outcome.reason}`);
      else if (outcome.kind === "late") this.logger.debug({ sessionId: session.id, generation: String(generation) }, "a newer label refresh landed first");
    } catch (error) {
      const reason = error instanceof LabelStateUnavailable ? error.message : `${this.labeler.name} labeler: ${(error as Error).message}`;
      this.labelsUnavailable(session, reason);
    }
  }

  /**
   * The completion notification went out at once, titled with the label known before (on the
   * first exchange, the working directory): revised in place with the new label, unless it has
   * ended or changed since (a later exchange's notification carries the label of its own time).
   */
  private async retitle(job: NamingJob, label: string): Promise<void> {
    const shown = job.shown;
    if (!shown) return;
    const { title } = completionNotification({ harness: shown.harness, label, cwd: shown.cwd, assistantText: shown.assistantText });
    if (title === shown.title) return;
    try {
      const [current] = await this.notifications.byIds([shown.id]);
      if (!current || current.title !== shown.title || isTerminal(current.status)) return;
      await this.notifications.update(shown.id, { title });
    } catch (error) {
      // A race with the person or a later exchange: the label is stored; the title stays.
      this.logger.debug({ sessionId: job.session.id, err: (error as Error).message }, "could not retitle the completion notification");
    }
  }

  private inBackground(work: Promise<void>) {
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  /** Never the exchange's text: only which session and why. */
  private labelsUnavailable(session: SessionRecord, reason: string) {
    this.logger.warn({ category: LABELS_UNAVAILABLE, sessionId: session.id, harness: session.harness, reason }, LABELS_UNAVAILABLE);
    this.observer.labelsUnavailable();
  }
}
