import type { NotificationService } from "../../service/notification-service.ts";
import type { ScanService } from "../../service/scan-service.ts";

export interface ScanDeps {
  scan: ScanService;
  notifications: NotificationService;
  /** Yields to the event loop between pages, so a long cycle never holds up requests. */
  pause(): Promise<void>;
}
