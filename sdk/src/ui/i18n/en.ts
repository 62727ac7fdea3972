// Every sentence, label and accessible name of the inbox (the SDK's components, shipped inside
// <herald-inbox>), in English; the dashboard's own pages add theirs in en-pages.ts. A translation
// is a copy of both files typed `Messages` and `PageMessages` (see app/README.md): a missing key
// is a compile error.
// Messages that take values are functions; plurals go through Intl.PluralRules (pluralOf).
import type { HeraldErrorCode } from "@herald/sdk";
import { pluralOf } from "./plural.ts";

const plural = pluralOf("en");

type Variant = "INFO" | "SUCCESS" | "WARNING" | "ERROR";
type InvocationState = "PENDING" | "ACKNOWLEDGED" | "FAILED";
type ConnectionShown = "connecting" | "live" | "reconnecting" | "offline" | "paused" | "unauthorized";

const STATUS_WORD: Record<string, string> = {
  PENDING: "pending",
  DELIVERED: "delivered",
  SEEN: "seen",
  DISMISSED: "dismissed",
  RESOLVED: "resolved",
  EXPIRED: "expired",
};
const statusWord = (status: string): string => STATUS_WORD[status] ?? status.toLowerCase();
const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

const UNREACHABLE = "Herald could not be reached. Check that it is running and try again.";
const SPENT_LINK = "This sign-in link is not valid any more: it may have been used already or have expired. Ask for a new one, or sign in with a token.";

export const en = {
  errors: {
    unknown: "Something went wrong. Try again.",
    /** Sentences per SDK error code, for the dashboard itself. */
    byCode: {
      NETWORK: UNREACHABLE,
      UNAUTHENTICATED: "Your sign-in is no longer valid. Sign in again.",
      FORBIDDEN: "That is a producer key, not a person token. Sign in with a token that starts with herald_pt_.",
      NOT_FOUND: "That notification no longer exists.",
    } as Partial<Record<HeraldErrorCode, string>>,
    /** On the token form: the pasted token was refused. */
    token: { UNAUTHENTICATED: "Herald did not accept this token. It may be mistyped, revoked or expired." } as Partial<Record<HeraldErrorCode, string>>,
    /** On a sign-in link: the link is spent. */
    link: { UNAUTHENTICATED: SPENT_LINK, VALIDATION_ERROR: SPENT_LINK, NOT_FOUND: SPENT_LINK } as Partial<Record<HeraldErrorCode, string>>,
  },

  variant: {
    INFO: "Info",
    SUCCESS: "Success",
    WARNING: "Warning",
    ERROR: "Error",
  } satisfies Record<Variant, string>,

  /** 75 -> "1 min 15 s"; 3900 -> "1 h 5 min". */
  duration: {
    hours: (h: number) => `${h} h`,
    hoursMinutes: (h: number, m: number) => `${h} h ${m} min`,
    minutes: (m: number) => `${m} min`,
    minutesSeconds: (m: number, s: number) => `${m} min ${s} s`,
    seconds: (s: number) => `${s} s`,
  },

  header: {
    bell: "Notifications",
    badgeOverflow: "99+",
    /** The bell's accessible name, also where its text is hidden (a phone). */
    bellName: (unseen: number) => `Notifications, ${unseen} unseen`,
  },

  connection: {
    labels: {
      connecting: "Connecting…",
      live: "Live",
      reconnecting: "Reconnecting…",
      offline: "Offline",
      paused: "Paused",
      unauthorized: "Signed out",
    } satisfies Record<ConnectionShown, string>,
    live: "Receiving notifications as they happen",
    offline: "Herald cannot be reached; the dashboard keeps trying",
    reconnecting: "The connection dropped; reconnecting without losing anything",
    connecting: "Connecting to Herald",
    /** The detail after the label, for screen readers. */
    detailSuffix: (detail: string) => `: ${detail}`,
  },

  quiet: {
    titleOn: "Quiet mode is on: new notifications are held. Click to turn it off.",
    titleOff: "Turn on quiet mode: hold new notifications until you turn it off",
    label: "Quiet mode",
    on: "On",
    off: "Off",
    turnedOn: "Quiet mode is on: new notifications are kept for later and not shown as they arrive.",
    turnedOff: "Quiet mode is off: anything that arrived meanwhile is shown now.",
  },

  /** The person's channels as the inbox lists them (Settings adds the rest, en-pages.ts). */
  channels: {
    loading: "Loading your channels…",
    yours: "Your channels",
    noneElsewhere: "No channels yet: add them in Herald's settings.",
    kind: { WEB_PUSH: "Browser push", NTFY: "ntfy", WEBHOOK: "Webhook" } as Record<string, string>,
    failing: "Failing: the last delivery did not arrive.",
    lastDelivery: (when: string) => `Last delivery ${when}`,
    noDelivery: "Nothing sent yet.",
  },

  drawer: {
    title: "Notifications",
    noUnseen: "No unseen notifications",
    loading: "Loading…",
    unseen: (count: number) => `${count} unseen`,
    quietSuffix: " · quiet mode on",
    close: "Close notifications",
    show: "Show",
    filters: "Filters",
    filtersOn: (count: number) => `Filters (${count})`,
    status: {
      all: "All",
      unread: "Unread",
      snoozed: "Snoozed",
      dismissed: "Dismissed",
      history: "History",
    },
    scope: "Scope",
    session: "Session",
    engagement: "Engagement",
    any: "Any",
    scopes: {
      PERSON: "Personal",
      SESSION: "Session",
      APPLICATION: "Application",
    },
    emptyUnread: "Nothing unread",
    emptySnoozed: "Nothing is snoozed",
    emptyDismissed: "Nothing dismissed yet",
    emptyHistory: "No history yet",
    emptyHistoryText: "Resolved and expired notifications are kept here.",
    emptyFiltered: "No notifications match these filters",
    emptyAll: "No notifications",
    emptyAllText: "New notifications appear here as soon as they are published.",
    emptySnoozedText: "Snooze a notification from its card to hide it until later.",
    emptyOtherText: "Try another filter.",
  },

  bulk: {
    allRead: "Everything was already read.",
    markedRead: (count: number) => `Marked ${count} as read.`,
    nothingToClear: "Nothing read to clear.",
    restored: (count: number) => `Restored ${count} ${plural(count, { one: "notification", other: "notifications" })}.`,
    cleared: (count: number) => `Cleared ${count} read ${plural(count, { one: "notification", other: "notifications" })}.`,
    confirm: "Clear every notification you have read?",
    clear: "Clear",
    cancel: "Cancel",
    markAll: "Mark all read",
    clearAll: "Clear all",
  },

  feed: {
    nothingHere: "Nothing here",
    loading: "Loading notifications…",
    failedTitle: "Notifications could not be loaded",
    failed: "Herald did not answer. The dashboard keeps trying on its own.",
    retryNow: "Try again now",
    olderFailed: (reason: string) => `Older notifications could not be loaded: ${reason}`,
    retry: "Try again",
    loadingOlder: "Loading older notifications…",
    loadOlder: "Load older notifications",
    end: "That is everything.",
    today: "Today",
    yesterday: "Yesterday",
  },

  card: {
    new: "New",
    unread: "Unread",
    markRead: "Mark as read",
    markUnread: "Mark as unread",
    /** After "Mark as read" / "Mark as unread", for screen readers: which card. */
    readTarget: (title: string) => `: “${title}”`,
    noticed: "Noticed",
    noticedTitle: "Something your companion noticed and offers to remember",
    dismissLabel: (title: string) => `Dismiss “${title}”`,
    dismiss: "Dismiss",
    progress: "Progress",
    inProgress: "In progress",
    progressLabel: (title: string, phase: string | null) => `${title}: ${phase ?? "in progress"}`,
    elapsed: (duration: string) => `${duration} elapsed`,
    cancel: "Cancel",
    source: "Source",
    session: (name: string) => `Session: ${name}`,
    snoozedUntil: (when: string) => `Snoozed until ${when}`,
    invocation: (state: InvocationState, plugin: string, outcome: string | null) =>
      `${{ PENDING: "Pending", ACKNOWLEDGED: "Done", FAILED: "Failed" }[state]}${state === "PENDING" ? ` (waiting for ${plugin})` : ""}${outcome ? `: ${outcome}` : ""}`,
    /** "Dismissed 58 seconds ago": one capital, like every other sentence. */
    terminal: (status: string, when: string | null) => capitalised(`${statusWord(status)}${when ? ` ${when}` : ""}`),
    /** A producer revised it since it arrived: "updated 5 minutes ago". */
    updatedAgo: (when: string) => `updated ${when}`,
    /** Revised, at a time the record no longer tells (the person's own state moved it since). */
    updated: "updated",
    revisedTimes: (count: number) => `Revised ${count} ${plural(count, { one: "time", other: "times" })} since it arrived`,
    cancelQuestion: (label: string) => `${label}?`,
    cancelYes: "Yes, cancel it",
    cancelKeep: "Keep it running",
    newTab: " (opens in a new tab)",
    unsafeLink: "This link is not an http(s) address and is not opened",
    details: "Details",
    unsnooze: "Unsnooze",
  },

  snooze: {
    open: "Snooze",
    menuLabel: (title: string) => `Snooze “${title}” until`,
    oneHour: "For 1 hour",
    tomorrow: "Until tomorrow, 9:00",
    pick: "Pick a time",
    submit: "Snooze",
  },

  mute: {
    open: "Mute",
    menuLabel: (plugin: string) => `Mute notifications from ${plugin}`,
    oneHour: "For 1 hour",
    oneDay: "For 1 day",
    untilUnmuted: "Until I unmute it",
  },

  actionForm: {
    required: " *",
    choose: "Choose…",
  },

  actionDisplay: {
    close: "Close",
    closeLabel: (title: string) => (title ? `Close “${title}”` : "Close this result"),
    untitled: "Result",
    bannersLabel: "Results of your actions",
    bodyLabel: "Details",
  },

  offline: {
    title: "Offline.",
    lastSynced: (when: string) => `What you see was last synced ${when}; the dashboard keeps trying.`,
    neverSynced: "Nothing has been synced yet; the dashboard keeps trying.",
  },

  notices: {
    close: "Close message",
    undo: "Undo",
    /** The undo notice's close button: the change is sent now. */
    commit: "Done, close",
    undoHint: "Ctrl+Z",
  },

  /** What the person hears after their own actions (notices and the live region). */
  actions: {
    dismissed: (title: string) => `Dismissed “${title}”.`,
    restored: (title: string) => `“${title}” is back.`,
    renamed: (title: string) => `, now titled “${title}”`,
    conflict: (title: string, from: number, to: number, renamed: string) =>
      `Not dismissed: “${title}” changed while you were looking at it (revision ${from} → ${to}${renamed}). The newer version is shown; dismiss it again if it is still done with.`,
    alreadyTerminal: (title: string, status: string) => `“${title}” was already ${statusWord(status)}.`,
    gone: (title: string) => `“${title}” no longer exists.`,
    snoozeInPast: "Pick a time in the future to snooze until.",
    snoozed: (title: string, until: string) => `Snoozed “${title}” until ${until}.`,
    unsnoozed: (title: string) => `“${title}” is back in your notifications.`,
    muted: (plugin: string, until: string | null) => (until ? `Muted ${plugin} until ${until}.` : `Muted ${plugin} until you unmute it.`),
    muteUndone: (plugin: string) => `${plugin} is not muted.`,
    remembered: "Remembered.",
    waiting: (label: string, plugin: string) => `“${label}” is waiting for ${plugin} to take it up.`,
    copied: "Copied to the clipboard.",
    copyRefused: "Copying is not allowed here; select the text and copy it by hand.",
  },

  /** New arrivals, for the polite live region. */
  announce: (count: number, newest: string) =>
    plural(count, { one: `New notification: ${newest}`, other: `${count} new notifications, the newest: ${newest}` }),
};

/** The shape every language's catalogue has. */
export type Messages = typeof en;
