// Every sentence, label and accessible name the dashboard shows, in English. A translation is a
// copy of this file typed `Messages` (see app/README.md): a missing key is a compile error.
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
  app: {
    name: "Herald",
    /** A page's <title>: "Settings · Herald". */
    pageTitle: (page: string) => `${page} · Herald`,
    /** The overview's <title>, with the unseen count in front when there is one. */
    overviewTitle: (unseen: number) => `${unseen > 0 ? `(${unseen}) ` : ""}Herald`,
  },

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
    serverHint: "The dashboard will work again as soon as Herald answers. Reload to retry.",
    noSuchEntity: (kind: string) => `No such ${kind.toLowerCase()}`,
    noSuchEntityHint: "It does not exist, or it is not yours to see.",
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

  errorPage: {
    notFoundTitle: "Not found",
    failedTitle: "Something went wrong",
    notFoundHeading: "This page does not exist",
    reload: "Reload",
    home: "Go to the dashboard",
  },

  signin: {
    pageTitle: "Sign in",
    heading: "Sign in",
    lead: "Paste your person token. It is checked with Herald and kept in a secure cookie on this dashboard; it never appears in an address.",
    expired: "Your previous sign-in is no longer valid. Sign in again.",
    tokenLabel: "Person token",
    tokenPlaceholder: "herald_pt_…",
    hintBefore: "Already in Herald? Get a one-time sign-in link with",
    hintCommand: "herald signin <personId>",
    hintBetween: ". New here? Create yourself with",
    hintCreateCommand: "herald person create --name <you>",
    hintAfter: ", which prints a link and a token.",
    submit: "Sign in",
    missingToken: "Paste your person token to sign in.",
  },

  signinLink: {
    pageTitle: "Sign-in link",
    failedHeading: "This sign-in link did not work",
    withToken: "Sign in with a token",
    heading: "Sign in to Herald",
    lead: "This one-time link signs you in to the dashboard on this browser. It works once: after you continue, it cannot be used again.",
    continue: "Continue to the dashboard",
    hint: "Not expecting this? Close the page; nothing happens until you continue.",
  },

  header: {
    skip: "Skip to content",
    brandLabel: "Herald overview",
    settings: "Settings",
    bell: "Notifications",
    badgeOverflow: "99+",
    /** The bell's accessible name, also where its text is hidden (a phone). */
    bellName: (unseen: number) => `Notifications, ${unseen} unseen`,
    signedInAs: (name: string) => `Signed in as ${name}`,
    signOutLabel: (name: string) => `Sign out ${name}`,
    signOut: "Sign out",
    signedOut: "Your sign-in is no longer valid.",
    signInAgain: "Sign in again",
    quietOn: "Quiet mode is on.",
    quietOnDetail: "New notifications are listed and counted quietly; nothing pops up until you turn it off.",
    turnOff: "Turn off",
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

  overview: {
    hello: (name: string) => `Hello, ${name}`,
    noValue: "–",
    unseen: "unseen",
    active: "active",
    sessionsWith: (count: number) => `${plural(count, { one: "session", other: "sessions" })} with notifications`,
    connecting: "Connecting to Herald…",
    unreachableTitle: "Herald cannot be reached",
    unreachable: (sentence: string) => `${sentence} The dashboard keeps trying and catches up without losing anything.`,
    caughtUpTitle: "You are all caught up",
    caughtUp: "Nothing needs your attention. New notifications show up here and in the bell as soon as they are published.",
    latest: "Latest",
    openAll: "Open all",
    unseenTitle: "Unseen",
    unseenHidden: "unseen",
    whereTitle: "Where they come from",
    nowhere: "None of your notifications belongs to a session or engagement.",
    sessions: "Sessions",
    engagements: "Engagements",
    hint: "Notifications open from the bell in the header; press Escape to close them.",
  },

  settings: {
    pageTitle: "Settings",
    heading: "Settings",
    liveHeading: "What reaches you live",
    liveLead:
      "Everything is still stored. Muted sources and lower severities stay out of this inbox and its badge; quiet mode and quiet hours only decide what pops up as it arrives.",
    mutedLabel: "Muted sources",
    mutedHelp: "Their notifications are never pushed, and stay out of this inbox; everything is still stored.",
    mutedNone: "No source is muted.",
    mutedUntil: (when: string) => `until ${when}`,
    mutedForever: "until you unmute it",
    unmute: "Unmute",
    unmuteLabel: (plugin: string) => `Unmute ${plugin}`,
    muteAddLabel: "Mute a source",
    mutedPlaceholder: "ci",
    muteForLabel: "For how long",
    muteAdd: "Mute",
    floorLabel: "Lowest severity pushed",
    floorHelp: "Info < Success < Warning < Error. Anything below stays out of this inbox.",
    quietHours: "Quiet hours",
    quietHoursOn: "Hold notifications every day between",
    from: "From",
    until: "until",
    timeZone: "Time zone",
    timeZoneHelp: "An IANA name such as Europe/Berlin. Held notifications arrive when quiet hours end.",
    allowErrors: "Let errors through",
    save: "Save",
    saving: "Saving…",
    saved: "Settings saved.",
  },

  desktop: {
    heading: "Desktop notifications",
    lead: "While this dashboard is open in a background tab, new notifications can show as system notifications. Clicking one brings you to it.",
    minimumLabel: "Show them for",
    atLeast: (severity: string) => `${severity} and above`,
    turnOn: "Turn on desktop notifications",
    turnOff: "Turn off",
    on: "Desktop notifications are on in this browser.",
    blocked: "This browser blocks notifications from this dashboard. Allow them in the browser's site settings, then reload.",
    unsupported: "This browser cannot show desktop notifications.",
  },

  /** Web Push notifications shown by the service worker, and what their buttons answer. */
  push: {
    untitled: "Herald",
    /** The body under the title: "Error · Build 1042 failed". */
    body: (severity: string, body: string) => `${severity} · ${body}`,
    notDone: (label: string, title: string) => `Not done: “${label}” on “${title}”`,
    refused: "It was already answered, has changed or has expired. Open Herald to see it.",
    unreachable: "Herald could not be reached. Open Herald to try again.",
  },

  /** Settings, "Notify me elsewhere": channels that reach the person away from the dashboard. */
  channels: {
    heading: "Notify me elsewhere",
    lead: "Get notifications on your phone or in other tools while no dashboard is open. Buttons on a notification answer from there.",
    loading: "Loading your channels…",
    yours: "Your channels",
    none: "No channels yet: add this device, an ntfy topic or a webhook below.",
    noneElsewhere: "No channels yet: add them in Herald's settings.",
    kind: { WEB_PUSH: "Browser push", NTFY: "ntfy", WEBHOOK: "Webhook" } as Record<string, string>,
    thisDevice: "This device",
    failing: "Failing: the last delivery did not arrive.",
    lastDelivery: (when: string) => `Last delivery ${when}`,
    noDelivery: "Nothing sent yet.",
    rules: "Rules",
    rulesFor: (label: string) => `Rules for ${label}`,
    minSeverity: "Send",
    atLeast: (severity: string) => `${severity} and above`,
    scopes: "For notifications that are",
    delay: "When",
    delayNow: "At once",
    delayAfter: (duration: string) => `Only if still unseen after ${duration}`,
    saveRules: "Save rules",
    rulesSaved: (label: string) => `Rules saved for ${label}.`,
    test: "Send a test",
    testFor: (label: string) => `Send a test to ${label}`,
    testState: {
      PENDING: "Test queued…",
      SENT: "Test sent.",
      FAILED: "Test failed",
      SKIPPED: "Test not sent.",
    } as Record<string, string>,
    remove: "Remove",
    removeFor: (label: string) => `Remove ${label}`,
    confirmRemove: (label: string) => `Remove ${label}? Nothing more is sent there.`,
    confirm: "Remove it",
    keep: "Keep it",
    removed: (label: string) => `Removed ${label}.`,
    device: {
      heading: "This device",
      lead: "Shows notifications on this phone or computer even with the dashboard closed. On a phone, install the dashboard to the home screen first.",
      add: "Notify this device",
      asking: "Asking the browser…",
      on: "This device gets notifications. Its channel is listed above.",
      blocked: "This browser blocks notifications from this dashboard. Allow them in the browser's site settings, then try again.",
      unsupported: "This browser cannot receive push notifications. On an iPhone, add the dashboard to the home screen and open it from there.",
      failed: (reason: string) => `This browser could not subscribe to push notifications: ${reason}`,
      noAnswer: "its push service did not answer. Check the connection to the internet and try again.",
      label: (browser: string, platform: string) => (platform ? `${browser} on ${platform}` : browser),
      browser: "Browser",
      added: "This device will now get notifications.",
    },
    ntfy: {
      heading: "ntfy topic",
      lead: "Subscribe to a topic in the ntfy app, then paste the topic's full URL.",
      url: "Topic URL",
      urlPlaceholder: "https://ntfy.sh/your-secret-topic",
      token: "Access token (optional)",
      tokenHelp: "For a protected topic. It is sent as a bearer token and never shown again.",
      add: "Add ntfy topic",
    },
    webhook: {
      heading: "Webhook",
      lead: "Herald POSTs each notification as JSON, signed per the Standard Webhooks specification.",
      url: "Endpoint URL",
      urlPlaceholder: "https://example.com/herald-hook",
      add: "Add webhook",
      secretHeading: "Signing secret",
      secretLead: "Copy it now: it is shown only this once. Your endpoint verifies each request's webhook-signature with it.",
      copy: "Copy secret",
      copied: "Secret copied.",
      done: "I have copied it",
    },
    label: "Name (optional)",
    adding: "Adding…",
    added: (label: string) => `Added ${label}.`,
    deliveries: "Recent deliveries",
    noDeliveries: "Nothing has been sent yet.",
    deliveryTest: "Test",
    deliveryOf: (revision: number) => `Notification, revision ${revision}`,
    status: {
      PENDING: "Waiting",
      SENT: "Sent",
      FAILED: "Failed",
      SKIPPED: "Not sent (seen or ended first)",
    } as Record<string, string>,
    attempts: (count: number) => plural(count, { one: "1 attempt", other: `${count} attempts` }),
  },

  entity: {
    crumbs: "Breadcrumb",
    overview: "Overview",
    session: "Session",
    engagement: "Engagement",
    sessionSubtitle: (harness: string, sessionId: string) => `${harness} · ${sessionId}`,
    inSession: "In this session",
    sessionInline: "Inline notifications of this session",
    sessionOthers: "Other notifications of this session",
    sessionNothingElse: "Nothing else for this session",
    sessionNone: "No notifications for this session",
    sessionEmpty: "Notifications a producer publishes for this session appear here, inline ones at the top.",
    engagementRegion: "Notifications of this engagement",
    engagementNone: "No active notifications for this engagement",
    engagementEmpty: "Dismissed ones are in the drawer's Dismissed view.",
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

  modal: {
    position: (count: number) => `1 of ${count}`,
    dismiss: "Dismiss",
    close: "Close",
  },

  actionDisplay: {
    close: "Close",
    closeLabel: (title: string) => (title ? `Close “${title}”` : "Close this result"),
    untitled: "Result",
    bannersLabel: "Results of your actions",
    bodyLabel: "Details",
  },

  banners: {
    label: "Banners",
    more: (count: number) => `${count} more ${plural(count, { one: "banner", other: "banners" })} in notifications`,
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

  /** The plain-text answers of an attachment download that did not work. */
  assets: {
    signIn: "Sign in to download attachments.",
    unreachable: "Herald could not be reached; try again shortly.",
    signInAgain: "Sign in again to download attachments.",
    notFound: "This attachment is not available (it was removed, or it is not yours to see).",
    failed: "Herald could not send this attachment; try again shortly.",
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
    unmuted: (plugin: string) => `${plugin} is no longer muted.`,
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
