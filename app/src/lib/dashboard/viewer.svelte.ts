// The signed-in person as the page shows them: their name and quiet mode.
import type { Connection } from "./connection.svelte";
import type { Messages } from "./messages.svelte";

export class Viewer {
  name = $state("");
  quietMode = $state(false);
  quietBusy = $state(false);

  constructor(
    viewer: { name: string; quietMode: boolean },
    private readonly connection: Connection,
    private readonly messages: Messages,
    private readonly fail: (error: unknown) => void,
  ) {
    this.name = viewer.name;
    this.quietMode = viewer.quietMode;
  }

  async setQuietMode(enabled: boolean): Promise<void> {
    const client = this.connection.client;
    if (!client || this.quietBusy) return;
    this.quietBusy = true;
    try {
      this.quietMode = await client.setQuietMode(enabled);
      this.messages.notify(
        this.quietMode
          ? "Quiet mode is on: new notifications are kept for later and not shown as they arrive."
          : "Quiet mode is off: anything that arrived meanwhile is shown now.",
      );
    } catch (error) {
      this.fail(error);
    } finally {
      this.quietBusy = false;
    }
  }
}
