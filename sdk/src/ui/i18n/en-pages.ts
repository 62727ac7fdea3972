// The dashboard's own pages in English: sign-in, the header, the overview, Settings with its
// channels, entities, banners, the modal and errors. Kept apart from en.ts so that <herald-inbox>,
// which has none of these pages, does not ship their text; pages.ts joins the two for the app
// (a section both files have, such as channels, is joined key by key).
import { pluralOf } from "./plural.ts";

const plural = pluralOf("en");

export const enPages = {
  app: {
    name: "Herald",
    /** A page's <title>: "Settings · Herald". */
    pageTitle: (page: string) => `${page} · Herald`,
    /** The overview's <title>, with the unseen count in front when there is one. */
    overviewTitle: (unseen: number) => `${unseen > 0 ? `(${unseen}) ` : ""}Herald`,
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

  /** Settings, "Notify me elsewhere": adding, testing and removing channels, with their deliveries. */
  channels: {
    heading: "Notify me elsewhere",
    lead: "Get notifications on your phone or in other tools while no dashboard is open. Buttons on a notification answer from there.",
    none: "No channels yet: add this device, an ntfy topic or a webhook below.",
    thisDevice: "This device",
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

  errors: {
    serverHint: "The dashboard will work again as soon as Herald answers. Reload to retry.",
    noSuchEntity: (kind: string) => `No such ${kind.toLowerCase()}`,
    noSuchEntityHint: "It does not exist, or it is not yours to see.",
  },

  header: {
    skip: "Skip to content",
    brandLabel: "Herald overview",
    settings: "Settings",
    signedInAs: (name: string) => `Signed in as ${name}`,
    signOutLabel: (name: string) => `Sign out ${name}`,
    signOut: "Sign out",
    signedOut: "Your sign-in is no longer valid.",
    signInAgain: "Sign in again",
    quietOn: "Quiet mode is on.",
    quietOnDetail: "New notifications are listed and counted quietly; nothing pops up until you turn it off.",
    turnOff: "Turn off",
  },

  modal: {
    position: (count: number) => `1 of ${count}`,
    dismiss: "Dismiss",
    close: "Close",
  },

  banners: {
    label: "Banners",
    more: (count: number) => `${count} more ${plural(count, { one: "banner", other: "banners" })} in notifications`,
  },

  /** The plain-text answers of an attachment download that did not work. */
  assets: {
    signIn: "Sign in to download attachments.",
    unreachable: "Herald could not be reached; try again shortly.",
    signInAgain: "Sign in again to download attachments.",
    notFound: "This attachment is not available (it was removed, or it is not yours to see).",
    failed: "Herald could not send this attachment; try again shortly.",
  },

  actions: {
    unmuted: (plugin: string) => `${plugin} is no longer muted.`,
  },
};

/** The shape of every language's page catalogue. */
export type PageMessages = typeof enPages;
