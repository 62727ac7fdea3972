// `herald hooks install <harness> [--print] [--scope user|project] [--command PATH] [--force] [--approvals]`.
// stdout: the snippet (--print) or one line per file ("installed PATH (backup: ...)" or
// "unchanged PATH"). A refused install is one stderr line and exit 2; nothing was written.
import type { Command } from "commander";

interface Flags {
  print?: boolean;
  scope?: string;
  command?: string;
  force?: boolean;
  approvals?: boolean;
}

export function registerHooksCommand(program: Command): void {
  const hooks = program.command("hooks").description("agent-harness hooks that report to Herald");
  hooks
    .command("install")
    // The table (harnesses.ts) loads only when the command runs, so other commands start without it.
    .argument("<harness>", "the agent harness (claude-code, codex, ...; an unknown one lists them)")
    .option("--print", "print the configuration to add instead of changing any file")
    .option("--scope <scope>", "user (the default) or project (the working directory's settings), where the harness has both")
    .option("--command <path>", "the herald executable the harness runs (default: herald, found on PATH)")
    .option("--force", "replace a conflicting setting the harness allows only one of (Codex's notify)")
    .option("--approvals", "claude-code: also ask the person to allow or deny each permission request (PermissionRequest hook)")
    .description("merge Herald's hook into the harness's configuration (idempotent; the previous file is backed up)")
    .action(async (harness: string, flags: Flags) => {
      const { install, installContext, installerOf } = await import("./install.ts");
      const { InstallError } = await import("./installer.ts");
      try {
        const installer = installerOf(harness);
        const context = installContext(installer, flags);
        if (flags.print) {
          process.stdout.write(installer.snippet(context));
          for (const change of installer.changes(context)) process.stderr.write(`merge into ${change.path}\n`);
          return;
        }
        for (const outcome of await install(installer, context)) {
          console.log(
            outcome.status === "unchanged"
              ? `unchanged ${outcome.path} (already installed)`
              : `installed ${outcome.path}${outcome.backup ? ` (backup: ${outcome.backup})` : ""}`,
          );
        }
      } catch (error) {
        if (!(error instanceof InstallError)) throw error;
        console.error(`herald: ${error.message}`);
        process.exitCode = 2;
      }
    });
}
