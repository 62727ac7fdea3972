import type { ColumnType } from "kysely";
export type Generated<T> = T extends ColumnType<infer S, infer I, infer U>
  ? ColumnType<S, I | undefined, U>
  : ColumnType<T, T | undefined, T>;
export type Timestamp = ColumnType<Date, Date | string, Date | string>;

export type ActionInvocation = {
    id: string;
    seq: number;
    notificationId: string;
    notificationKey: string;
    personId: string;
    plugin: string;
    actionId: string;
    targetActionId: string;
    fixedParams: string | null;
    values: string | null;
    state: string;
    presentation: Generated<string>;
    variant: Generated<string>;
    message: string | null;
    display: string | null;
    uiEffects: string | null;
    createdAt: Timestamp;
    acknowledgedAt: Timestamp | null;
};
export type ActionToken = {
    tokenHash: string;
    personId: string;
    notificationId: string;
    revision: number;
    actionId: string;
    expiresAt: Timestamp;
    usedAt: Timestamp | null;
    createdAt: Timestamp;
};
export type Asset = {
    id: string;
    producerId: string;
    filename: string;
    contentType: string;
    size: number;
    sha256: string;
    bytes: Buffer;
    createdAt: Generated<Timestamp>;
};
export type AssetReference = {
    assetId: string;
    notificationId: string;
};
export type Channel = {
    id: string;
    personId: string;
    kind: string;
    label: string;
    url: string;
    secret: string;
    minSeverity: Generated<number>;
    scopes: Generated<string>;
    delaySeconds: Generated<number>;
    failing: Generated<boolean>;
    lastDeliveryAt: Timestamp | null;
    createdAt: Generated<Timestamp>;
};
export type ChannelDelivery = {
    id: string;
    channelId: string;
    personId: string;
    notificationId: string | null;
    revision: Generated<number>;
    type: string;
    status: Generated<string>;
    attempts: Generated<number>;
    lastError: string | null;
    dueAt: string;
    leaseHolder: string | null;
    leaseUntil: string | null;
    createdAt: Timestamp;
    sentAt: Timestamp | null;
};
export type CompanionEvent = {
    id: string;
    type: string;
    payload: string;
    engagementId: string | null;
    actorPersonId: string | null;
    occurredAt: Timestamp;
    receivedAt: Timestamp;
    /**
     * The producer key that emitted it: idempotency keys are that producer's own.
     */
    producerId: string | null;
    idempotencyKey: string | null;
    /**
     * Digest of what the event said, so the same key with a different body is refused.
     */
    bodyDigest: string | null;
    listeners: Generated<string>;
    notificationIds: Generated<string>;
};
export type Credential = {
    id: string;
    kind: string;
    name: string;
    prefix: string;
    secretHash: string;
    personId: string | null;
    /**
     * A producer key bound to one plugin (`herald key create --plugin`); null: an admin key.
     */
    plugin: string | null;
    createdAt: Generated<Timestamp>;
    revokedAt: Timestamp | null;
};
export type Engagement = {
    id: string;
    name: string;
    operatorPersonId: string;
    createdAt: Generated<Timestamp>;
};
export type EngagementMember = {
    engagementId: string;
    personId: string;
    role: Generated<string>;
    createdAt: Generated<Timestamp>;
};
export type EventCounter = {
    name: string;
    value: Generated<number>;
};
export type Notification = {
    id: string;
    scope: string;
    personId: string | null;
    sessionId: string | null;
    key: string;
    activeKey: string | null;
    targetKey: string;
    revision: Generated<number>;
    lockVersion: Generated<number>;
    status: string;
    severity: string;
    title: string;
    body: string;
    sourcePlugin: string;
    sourceSubsystem: string | null;
    display: string;
    actions: Generated<string>;
    operation: string | null;
    operationId: string | null;
    uiEffects: string | null;
    data: string | null;
    retentionPolicy: string;
    expiresAt: Timestamp | null;
    requestId: string | null;
    serverInstanceId: string | null;
    triggerType: string;
    triggerRef: string | null;
    dedupKey: string | null;
    engagementId: string | null;
    resolution: string | null;
    terminalReason: string | null;
    snoozedUntil: Timestamp | null;
    createdAt: Generated<Timestamp>;
    updatedAt: Generated<Timestamp>;
    deliveredAt: Timestamp | null;
    seenAt: Timestamp | null;
    readAt: Timestamp | null;
    dismissedAt: Timestamp | null;
    resolvedAt: Timestamp | null;
    expiredAt: Timestamp | null;
};
export type NotificationEvent = {
    seq: number;
    personId: string | null;
    type: string;
    notificationId: string;
    revision: number;
    snapshot: string;
    createdAt: Generated<Timestamp>;
};
export type NotificationReceipt = {
    notificationId: string;
    personId: string;
    deliveredAt: Timestamp | null;
    seenAt: Timestamp | null;
    readAt: Timestamp | null;
    dismissedAt: Timestamp | null;
    dismissReason: string | null;
    snoozedUntil: Timestamp | null;
    updatedAt: Generated<Timestamp>;
};
export type Person = {
    id: string;
    name: string;
    quietMode: Generated<boolean>;
    mutedPlugins: Generated<string>;
    severityFloor: Generated<string>;
    quietHours: string | null;
    createdAt: Generated<Timestamp>;
};
export type RememberedFact = {
    id: string;
    personId: string;
    content: string;
    engagementId: string | null;
    dateRules: Generated<string>;
    hasDates: Generated<boolean>;
    datesVersion: Generated<number>;
    createdAt: Generated<Timestamp>;
};
export type ScannerLease = {
    name: string;
    cycleStart: Timestamp;
    holder: string;
    claimedAt: Timestamp;
};
export type ServerInstance = {
    id: string;
    startedAt: Timestamp;
    heartbeatAt: Timestamp;
};
export type ServerSetting = {
    key: string;
    value: string;
};
export type Session = {
    id: string;
    harness: string;
    nativeSessionId: string;
    ownerPersonId: string;
    label: Generated<string>;
    completionId: Generated<string>;
    sourceGeneration: Generated<string>;
    labelGeneration: Generated<string>;
    namingFingerprint: Generated<string>;
    createdAt: Generated<Timestamp>;
};
export type SessionExchange = {
    sessionId: string;
    completionId: string;
    notificationId: string | null;
    createdAt: Generated<Timestamp>;
};
export type SignInCode = {
    id: string;
    codeHash: string;
    personId: string;
    expiresAt: Timestamp;
    usedAt: Timestamp | null;
    createdAt: Generated<Timestamp>;
};
export type DB = {
    ActionInvocation: ActionInvocation;
    ActionToken: ActionToken;
    Asset: Asset;
    AssetReference: AssetReference;
    Channel: Channel;
    ChannelDelivery: ChannelDelivery;
    CompanionEvent: CompanionEvent;
    Credential: Credential;
    Engagement: Engagement;
    EngagementMember: EngagementMember;
    EventCounter: EventCounter;
    Notification: Notification;
    NotificationEvent: NotificationEvent;
    NotificationReceipt: NotificationReceipt;
    Person: Person;
    RememberedFact: RememberedFact;
    ScannerLease: ScannerLease;
    ServerInstance: ServerInstance;
    ServerSetting: ServerSetting;
    Session: Session;
    SessionExchange: SessionExchange;
    SignInCode: SignInCode;
};
