// The harnesses `herald hooks install` knows: one file each, one entry each here.
import { claudeCode } from "./claude-code.ts";
import { codex } from "./codex.ts";
import type { HarnessInstaller } from "./installer.ts";

export const installers: readonly HarnessInstaller[] = [claudeCode, codex];
