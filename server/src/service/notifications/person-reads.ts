// What a person reads: one record in their own state, a page of a filtered list, and its counts.
import type { Clock } from "../../domain/clock.ts";
import { ValidationError } from "../../domain/errors.ts";
import { effectiveFilter, type NotificationFilter, type Position, unreadOnly, unseenOnly } from "../../domain/filter.ts";
import type { NotificationRecord, Receipt } from "../../domain/notification.ts";
import { validatePageSize } from "../../domain/validation.ts";
import type { NotificationStore } from "../../storage/notifications/notification-store.ts";
import type { CursorCodec } from "../cursor.ts";

export interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

export class PersonReads {
  constructor(
    private readonly store: NotificationStore,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
  ) {}

  async get(personId: string, id: string): Promise<NotificationRecord | null> {
    return (await this.store.viewFor(id, personId))?.view ?? null;
  }

  /** Every person's own state of a shared record, for streams that present its shared events. */
  receiptsOf(notificationId: string): Promise<Map<string, Receipt>> {
    return this.store.receiptsOf(notificationId);
  }

  async page(personId: string, filter: NotificationFilter | null | undefined, args: PageArgs) {
    const first = args.first === undefined || args.first === null ? null : validatePageSize(args.first, "first");
    const last = args.last === undefined || args.last === null ? null : validatePageSize(args.last, "last");
    if (first !== null && last !== null) throw new ValidationError("last", "last: use either first or last, not both");
    return {
      after: args.after ? this.cursors.decode(personId, args.after, "after") : null,
      before: args.before ? this.cursors.decode(personId, args.before, "before") : null,
      first,
      last,
      /** `fields`: the only fields of the records the caller reads (null: all). */
      fetch: (
        page: { after: Position | null; before: Position | null; limit: number; inverted: boolean },
        fields: Iterable<keyof NotificationRecord> | null = null,
      ) => this.store.page(personId, effectiveFilter(filter), page, this.clock.now(), fields),
      cursorOf: (record: NotificationRecord) => this.cursors.encode(personId, record),
    };
  }

  async counts(personId: string, filter: NotificationFilter | null | undefined) {
    const f = effectiveFilter(filter);
    const now = this.clock.now();
    const [total, unseen, unread] = await Promise.all([
      this.store.count(personId, f, now),
      this.store.count(personId, unseenOnly(f), now),
      this.store.count(personId, unreadOnly(f), now),
    ]);
    return { total, unseen, unread };
  }

  /** The number of records a filtered list holds (a connection's totalCount). */
  total(personId: string, filter: NotificationFilter | null | undefined): Promise<number> {
    return this.store.count(personId, effectiveFilter(filter), this.clock.now());
  }
}
