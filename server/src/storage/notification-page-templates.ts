// The list, count and batch-id statements of notification-page-sql.ts, kept per shape
// (statement-templates.ts): a list request binds its values into text built once for its shape.
import type { EffectiveFilter } from "../domain/filter.ts";
import type { Provider } from "./database-url.ts";
import { countStatement, type PageWindow, pageStatement, visibleIdsStatement } from "./notification-page-sql.ts";
import { type SlotValue, StatementTemplates, type TemplateSpec } from "./statement-templates.ts";

interface Visible {
  personId: string;
  filter: EffectiveFilter;
  now: Date;
  historyLimit: number | null;
}
interface PageInput extends Visible {
  page: PageWindow;
}
interface IdsInput extends Visible {
  limit: number;
}

const lists = ["severities", "plugins", "excludePlugins"] as const;

/** What of a filter decides the statement's text. */
function filterShape(f: EffectiveFilter, historyLimit: number | null): unknown[] {
  return [f.statuses, f.scope, f.sessionId !== null, f.engagementId !== null, f.includeSnoozed, f.includeStale, f.unread, historyLimit, ...lists.map((list) => f[list]?.length ?? -1)];
}

function visibleSlots(input: Visible): Map<string, SlotValue> {
  const slots = new Map<string, SlotValue>([
    ["personId", input.personId],
    ["now", input.now],
  ]);
  if (input.filter.sessionId !== null) slots.set("sessionId", input.filter.sessionId);
  if (input.filter.engagementId !== null) slots.set("engagementId", input.filter.engagementId);
  for (const list of lists) input.filter[list]?.forEach((value, i) => slots.set(`${list}.${i}`, value));
  return slots;
}

function withVisibleSlots<T extends Visible>(input: T, slots: ReadonlyMap<string, SlotValue>): T {
  const f = input.filter;
  const filter: EffectiveFilter = {
    ...f,
    sessionId: f.sessionId === null ? null : (slots.get("sessionId") as string),
    engagementId: f.engagementId === null ? null : (slots.get("engagementId") as string),
  };
  for (const list of lists) {
    if (f[list]) (filter as unknown as Record<string, unknown>)[list] = f[list]!.map((_, i) => slots.get(`${list}.${i}`));
  }
  return { ...input, personId: slots.get("personId") as string, now: slots.get("now") as Date, filter };
}

const pageSpec = (provider: Provider): TemplateSpec<PageInput> => ({
  shape: ({ filter, historyLimit, page }) => JSON.stringify([...filterShape(filter, historyLimit), page.after !== null, page.before !== null, page.inverted]),
  slots: (input) => {
    const slots = visibleSlots(input);
    slots.set("limit", input.page.limit);
    for (const side of ["after", "before"] as const) {
      const position = input.page[side];
      if (position) slots.set(`${side}.createdAt`, position.createdAt).set(`${side}.id`, position.id);
    }
    return slots;
  },
  withSlots: (input, slots) => {
    const at = (side: "after" | "before") => (input.page[side] ? { createdAt: slots.get(`${side}.createdAt`) as Date, id: slots.get(`${side}.id`) as string } : null);
    return { ...withVisibleSlots(input, slots), page: { ...input.page, limit: slots.get("limit") as number, after: at("after"), before: at("before") } };
  },
  build: (i) => pageStatement(provider, i.personId, i.filter, i.page, i.now, i.historyLimit),
});

const countSpec = (provider: Provider): TemplateSpec<Visible> => ({
  shape: ({ filter, historyLimit }) => JSON.stringify(filterShape(filter, historyLimit)),
  slots: visibleSlots,
  withSlots: withVisibleSlots,
  build: (i) => countStatement(provider, i.personId, i.filter, i.now, i.historyLimit),
});

const idsSpec = (provider: Provider): TemplateSpec<IdsInput> => ({
  shape: ({ filter, historyLimit }) => JSON.stringify(filterShape(filter, historyLimit)),
  slots: (input) => visibleSlots(input).set("limit", input.limit),
  withSlots: (input, slots) => ({ ...withVisibleSlots(input, slots), limit: slots.get("limit") as number }),
  build: (i) => visibleIdsStatement(provider, i.personId, i.filter, i.now, i.limit, i.historyLimit),
});

/** The three statements of a person's visible rows, each kept per shape. */
export class NotificationPageTemplates {
  readonly page: StatementTemplates<PageInput>;
  readonly count: StatementTemplates<Visible>;
  readonly visibleIds: StatementTemplates<IdsInput>;

  constructor(provider: Provider) {
    this.page = new StatementTemplates(provider, pageSpec(provider));
    this.count = new StatementTemplates(provider, countSpec(provider));
    this.visibleIds = new StatementTemplates(provider, idsSpec(provider));
  }
}
