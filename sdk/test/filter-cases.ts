// Which notifications a filtered list shows, as one table of cases that both sides check: the
// SDK's matchesFilter (unit test, test/unit/filter.test.ts) and the server's list query on both
// storage providers (server/test/api/filter-cases.test.ts). If either side changes a rule alone,
// one of the two suites fails. Plain data only, so the server imports it without the SDK.
//
// Symbolic ids: sessions "A" and "B" both belong to the reader; engagements "A" and "B" too.
// Times are relative to "now" when the list is read.

export type CaseStatus = "PENDING" | "DELIVERED" | "SEEN" | "DISMISSED" | "RESOLVED" | "EXPIRED";

export interface CaseRecord {
  scope: "PERSON" | "SESSION" | "APPLICATION";
  status: CaseStatus;
  /** The session a SESSION record is addressed to. */
  session?: "A";
  engagement?: "A";
  /** Snoozed until one hour from now ("future") or until a time that has passed ("past"). */
  snoozed?: "future" | "past";
  /** A TTL retention whose expiry is one hour ahead ("future") or has passed ("passed"). */
  ttl?: "future" | "passed";
  /** INFO when absent. */
  severity?: "INFO" | "WARNING" | "ERROR";
  /** The source plugin; "tests" when absent. */
  plugin?: "ci" | "deploy";
  /** Marked read by the reader (which also makes it seen). */
  read?: boolean;
}

export interface CaseFilter {
  statuses?: CaseStatus[];
  scope?: "PERSON" | "SESSION" | "APPLICATION";
  session?: "A" | "B";
  engagement?: "A" | "B";
  includeTerminal?: boolean;
  includeSnoozed?: boolean;
  severities?: ("INFO" | "SUCCESS" | "WARNING" | "ERROR")[];
  plugins?: string[];
  excludePlugins?: string[];
  unread?: boolean;
}

export interface FilterCase {
  name: string;
  record: CaseRecord;
  filter: CaseFilter;
  visible: boolean;
}

/** APPLICATION records carry per-person state the server keeps apart; the table uses their shared states only. */
export const filterCases: FilterCase[] = [
  // Default list: active records, not snoozed into the future, not past their TTL.
  { name: "a pending record is listed by default", record: { scope: "PERSON", status: "PENDING" }, filter: {}, visible: true },
  { name: "a delivered record is listed by default", record: { scope: "PERSON", status: "DELIVERED" }, filter: {}, visible: true },
  { name: "a seen record is listed by default", record: { scope: "PERSON", status: "SEEN" }, filter: {}, visible: true },
  { name: "a dismissed record is left out by default", record: { scope: "PERSON", status: "DISMISSED" }, filter: {}, visible: false },
  { name: "a resolved record is left out by default", record: { scope: "PERSON", status: "RESOLVED" }, filter: {}, visible: false },
  { name: "an expired record is left out by default", record: { scope: "PERSON", status: "EXPIRED" }, filter: {}, visible: false },
  { name: "includeTerminal lists a dismissed record", record: { scope: "PERSON", status: "DISMISSED" }, filter: { includeTerminal: true }, visible: true },
  {
    name: "includeTerminal lists a resolved record",
    record: { scope: "SESSION", session: "A", status: "RESOLVED" },
    filter: { includeTerminal: true },
    visible: true,
  },
  { name: "includeTerminal still lists active records", record: { scope: "PERSON", status: "SEEN" }, filter: { includeTerminal: true }, visible: true },

  // Explicit statuses win over includeTerminal.
  {
    name: "statuses [DISMISSED] lists a dismissed record",
    record: { scope: "PERSON", status: "DISMISSED" },
    filter: { statuses: ["DISMISSED"] },
    visible: true,
  },
  {
    name: "statuses [DISMISSED] leaves out an active record",
    record: { scope: "PERSON", status: "PENDING" },
    filter: { statuses: ["DISMISSED"] },
    visible: false,
  },
  {
    name: "statuses [PENDING, DELIVERED] (unseen) leave out a seen record",
    record: { scope: "PERSON", status: "SEEN" },
    filter: { statuses: ["PENDING", "DELIVERED"] },
    visible: false,
  },
  {
    name: "statuses [PENDING, DELIVERED] list a delivered record",
    record: { scope: "PERSON", status: "DELIVERED" },
    filter: { statuses: ["PENDING", "DELIVERED"] },
    visible: true,
  },
  {
    name: "statuses [SEEN] with includeTerminal leave out a resolved record",
    record: { scope: "PERSON", status: "RESOLVED" },
    filter: { statuses: ["SEEN"], includeTerminal: true },
    visible: false,
  },

  // Scope, session and engagement.
  { name: "scope SESSION lists a session record", record: { scope: "SESSION", session: "A", status: "PENDING" }, filter: { scope: "SESSION" }, visible: true },
  { name: "scope SESSION leaves out a person record", record: { scope: "PERSON", status: "PENDING" }, filter: { scope: "SESSION" }, visible: false },
  { name: "scope PERSON leaves out an application record", record: { scope: "APPLICATION", status: "PENDING" }, filter: { scope: "PERSON" }, visible: false },
  {
    name: "scope APPLICATION lists an application record",
    record: { scope: "APPLICATION", status: "PENDING" },
    filter: { scope: "APPLICATION" },
    visible: true,
  },
  { name: "an application record is listed by default", record: { scope: "APPLICATION", status: "PENDING" }, filter: {}, visible: true },
  { name: "a resolved application record is left out by default", record: { scope: "APPLICATION", status: "RESOLVED" }, filter: {}, visible: false },
  { name: "session A lists its record", record: { scope: "SESSION", session: "A", status: "SEEN" }, filter: { session: "A" }, visible: true },
  { name: "session B leaves out session A's record", record: { scope: "SESSION", session: "A", status: "PENDING" }, filter: { session: "B" }, visible: false },
  { name: "a session filter leaves out a person record", record: { scope: "PERSON", status: "PENDING" }, filter: { session: "A" }, visible: false },
  { name: "a session filter leaves out an application record", record: { scope: "APPLICATION", status: "PENDING" }, filter: { session: "A" }, visible: false },
  { name: "engagement A lists its person record", record: { scope: "PERSON", engagement: "A", status: "PENDING" }, filter: { engagement: "A" }, visible: true },
  {
    name: "engagement A lists its application record",
    record: { scope: "APPLICATION", engagement: "A", status: "PENDING" },
    filter: { engagement: "A" },
    visible: true,
  },
  {
    name: "engagement B leaves out engagement A's record",
    record: { scope: "PERSON", engagement: "A", status: "PENDING" },
    filter: { engagement: "B" },
    visible: false,
  },
  {
    name: "an engagement filter leaves out a record of no engagement",
    record: { scope: "PERSON", status: "PENDING" },
    filter: { engagement: "A" },
    visible: false,
  },
  {
    name: "session and engagement filters combine",
    record: { scope: "SESSION", session: "A", engagement: "A", status: "PENDING" },
    filter: { session: "A", engagement: "A" },
    visible: true,
  },

  // Snoozes.
  {
    name: "a record snoozed into the future is left out by default",
    record: { scope: "PERSON", status: "SEEN", snoozed: "future" },
    filter: {},
    visible: false,
  },
  {
    name: "includeSnoozed lists a record snoozed into the future",
    record: { scope: "PERSON", status: "SEEN", snoozed: "future" },
    filter: { includeSnoozed: true },
    visible: true,
  },
  { name: "a snooze that has passed no longer hides the record", record: { scope: "PERSON", status: "SEEN", snoozed: "past" }, filter: {}, visible: true },
  {
    name: "a snoozed session record stays out of its session's list",
    record: { scope: "SESSION", session: "A", status: "PENDING", snoozed: "future" },
    filter: { session: "A" },
    visible: false,
  },

  // TTL retention.
  { name: "a record within its TTL is listed", record: { scope: "PERSON", status: "PENDING", ttl: "future" }, filter: {}, visible: true },
  { name: "a record past its TTL is left out by default", record: { scope: "PERSON", status: "PENDING", ttl: "passed" }, filter: {}, visible: false },
  {
    name: "a record past its TTL is left out of an explicit status list",
    record: { scope: "PERSON", status: "PENDING", ttl: "passed" },
    filter: { statuses: ["PENDING"] },
    visible: false,
  },
  {
    name: "includeTerminal lists a record past its TTL",
    record: { scope: "PERSON", status: "PENDING", ttl: "passed" },
    filter: { includeTerminal: true },
    visible: true,
  },

  // Severity and source plugin.
  {
    name: "severities [ERROR] list an error",
    record: { scope: "PERSON", status: "PENDING", severity: "ERROR" },
    filter: { severities: ["ERROR"] },
    visible: true,
  },
  {
    name: "severities [ERROR] leave out a warning",
    record: { scope: "PERSON", status: "PENDING", severity: "WARNING" },
    filter: { severities: ["ERROR"] },
    visible: false,
  },
  {
    name: "severities [WARNING, ERROR] list a warning",
    record: { scope: "SESSION", session: "A", status: "SEEN", severity: "WARNING" },
    filter: { severities: ["WARNING", "ERROR"] },
    visible: true,
  },
  { name: "severities [] mean any severity", record: { scope: "PERSON", status: "PENDING" }, filter: { severities: [] }, visible: true },
  { name: "severities apply to application records", record: { scope: "APPLICATION", status: "PENDING" }, filter: { severities: ["ERROR"] }, visible: false },
  { name: "plugins [ci] list a ci record", record: { scope: "PERSON", status: "PENDING", plugin: "ci" }, filter: { plugins: ["ci"] }, visible: true },
  {
    name: "plugins [ci] leave out a deploy record",
    record: { scope: "PERSON", status: "PENDING", plugin: "deploy" },
    filter: { plugins: ["ci"] },
    visible: false,
  },
  {
    name: "plugins [ci, deploy] list an application deploy record",
    record: { scope: "APPLICATION", status: "PENDING", plugin: "deploy" },
    filter: { plugins: ["ci", "deploy"] },
    visible: true,
  },
  { name: "plugins [] mean any plugin", record: { scope: "PERSON", status: "PENDING", plugin: "deploy" }, filter: { plugins: [] }, visible: true },
  {
    name: "severities and plugins combine",
    record: { scope: "PERSON", status: "PENDING", plugin: "ci", severity: "WARNING" },
    filter: { plugins: ["ci"], severities: ["ERROR"] },
    visible: false,
  },
  {
    name: "severities do not bring back a terminal record",
    record: { scope: "PERSON", status: "RESOLVED", severity: "ERROR" },
    filter: { severities: ["ERROR"] },
    visible: false,
  },
  {
    name: "excludePlugins [ci] leave out a ci record",
    record: { scope: "PERSON", status: "PENDING", plugin: "ci" },
    filter: { excludePlugins: ["ci"] },
    visible: false,
  },
  {
    name: "excludePlugins [ci] list a deploy record",
    record: { scope: "PERSON", status: "PENDING", plugin: "deploy" },
    filter: { excludePlugins: ["ci"] },
    visible: true,
  },
  {
    name: "excludePlugins apply to application records",
    record: { scope: "APPLICATION", status: "PENDING", plugin: "deploy" },
    filter: { excludePlugins: ["deploy"] },
    visible: false,
  },
  { name: "excludePlugins [] leave out nothing", record: { scope: "PERSON", status: "PENDING", plugin: "ci" }, filter: { excludePlugins: [] }, visible: true },
  {
    name: "excludePlugins win over plugins",
    record: { scope: "PERSON", status: "PENDING", plugin: "ci" },
    filter: { plugins: ["ci"], excludePlugins: ["ci"] },
    visible: false,
  },

  // Read state: read is the reader's own, apart from seen.
  { name: "unread lists an unread record", record: { scope: "PERSON", status: "PENDING" }, filter: { unread: true }, visible: true },
  { name: "unread lists a seen record that was not read", record: { scope: "PERSON", status: "SEEN" }, filter: { unread: true }, visible: true },
  { name: "unread leaves out a read record", record: { scope: "PERSON", status: "SEEN", read: true }, filter: { unread: true }, visible: false },
  {
    name: "unread: false lists a read record",
    record: { scope: "SESSION", session: "A", status: "SEEN", read: true },
    filter: { unread: false },
    visible: true,
  },
  { name: "unread: false leaves out an unread record", record: { scope: "PERSON", status: "DELIVERED" }, filter: { unread: false }, visible: false },
  {
    name: "unread leaves out a read application record",
    record: { scope: "APPLICATION", status: "SEEN", read: true },
    filter: { unread: true },
    visible: false,
  },
  { name: "unread lists an application record no one read", record: { scope: "APPLICATION", status: "PENDING" }, filter: { unread: true }, visible: true },
  { name: "unread does not bring back a dismissed record", record: { scope: "PERSON", status: "DISMISSED" }, filter: { unread: true }, visible: false },
  {
    name: "unread with includeTerminal lists a resolved unread record",
    record: { scope: "PERSON", status: "RESOLVED" },
    filter: { unread: true, includeTerminal: true },
    visible: true,
  },
  { name: "a read record is listed by default", record: { scope: "PERSON", status: "SEEN", read: true }, filter: {}, visible: true },
];
