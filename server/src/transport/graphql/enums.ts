import {
  ActionKinds,
  DisplayFormats,
  NotificationEventTypes,
  NotificationScopes,
  NotificationStatuses,
  Presentations,
  RetentionPolicies,
  Severities,
  TriggerTypes,
} from "../../domain/enums.ts";
import { builder } from "./builder.ts";

export const NotificationScopeEnum = builder.enumType("NotificationScope", { values: NotificationScopes });
export const NotificationStatusEnum = builder.enumType("NotificationStatus", {
  values: NotificationStatuses,
  description: "PENDING, DELIVERED and SEEN are active; the rest are terminal. Unseen is PENDING or DELIVERED.",
});
export const SeverityEnum = builder.enumType("Severity", { values: Severities });
export const VariantEnum = builder.enumType("Variant", { values: Severities });
export const PresentationEnum = builder.enumType("Presentation", { values: Presentations });
export const DisplayFormatEnum = builder.enumType("DisplayFormat", { values: DisplayFormats });
export const TriggerTypeEnum = builder.enumType("TriggerType", { values: TriggerTypes });
export const RetentionPolicyEnum = builder.enumType("RetentionPolicy", { values: RetentionPolicies });
export const ActionKindEnum = builder.enumType("NotificationActionKind", { values: ActionKinds });
export const NotificationEventTypeEnum = builder.enumType("NotificationEventType", { values: NotificationEventTypes });
