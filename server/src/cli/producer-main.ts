// The producer commands on their own: the launcher (bin/herald.js) starts this entry for them, so
// a hook's `herald publish` loads the command line parser and an HTTP client, not the server's
// configuration, logger or store. `herald --help` (main.ts) lists them with everything else.
import { Command } from "commander";
import { registerProducerCommands } from "./producer-commands.ts";

const program = new Command("herald").description("Herald, the notification hub").showHelpAfterError();
registerProducerCommands(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
