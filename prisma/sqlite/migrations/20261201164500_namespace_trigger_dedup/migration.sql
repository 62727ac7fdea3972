-- De-duplication keys name their trigger's source (an event type, or a scan): rewrite the stored
-- ones so a trigger that fired before the change still counts as fired.
UPDATE "Notification" SET "dedupKey" = "personId" || '|scan:dates|' || "triggerRef"
WHERE "dedupKey" IS NOT NULL AND "triggerType" = 'TIME_BASED' AND "triggerRef" LIKE 'fact:%';

UPDATE "Notification" SET "dedupKey" = "personId" || '|scan:engagements|' || "triggerRef"
WHERE "dedupKey" IS NOT NULL AND "triggerType" = 'TIME_BASED' AND "triggerRef" LIKE 'stale:%';

-- An event's notifications are listed on the event that raised them, which names its type.
UPDATE "Notification" SET "dedupKey" = "personId" || '|event:' || (
  SELECT e."type" FROM "CompanionEvent" e WHERE e."notificationIds" LIKE '%"' || "Notification"."id" || '"%' LIMIT 1
) || '|' || "triggerRef"
WHERE "dedupKey" IS NOT NULL AND "triggerType" = 'EVENT_BASED'
  AND EXISTS (SELECT 1 FROM "CompanionEvent" e WHERE e."notificationIds" LIKE '%"' || "Notification"."id" || '"%');
