import type { AssetService } from "./service/asset-service.ts";
import type { ActionLinkService } from "./service/action-link-service.ts";
import type { AuthService } from "./service/auth-service.ts";
import type { ChannelService } from "./service/channel-service.ts";
import type { DirectoryService } from "./service/directory-service.ts";
import type { EventService } from "./service/event-service.ts";
import type { HistoryService } from "./service/history-service.ts";
import type { InvocationService } from "./service/invocation-service.ts";
import type { NotificationService } from "./service/notification-service.ts";
import type { RealtimeService } from "./realtime/realtime-service.ts";
import type { SessionService } from "./service/session-service.ts";

/** What transport (GraphQL, CLI, background jobs) may call. */
export interface Services {
  notifications: NotificationService;
  directory: DirectoryService;
  auth: AuthService;
  realtime: RealtimeService;
  sessions: SessionService;
  events: EventService;
  history: HistoryService;
  invocations: InvocationService;
  assets: AssetService;
  channels: ChannelService;
  actionLinks: ActionLinkService;
}
