// The harnesses `herald hooks install` knows: one file each, one entry each here.
import { claudeCode } from "./claude-code.ts";
import { codex } from "./codex.ts";
import type { HarnessInstaller } from "./installer.ts";
import { opencode } from "./opencode.ts";
import { pi } from "./pi.ts";

export const installers: readonly HarnessInstaller[] = [claudeCode, codex, pi, opencode];
