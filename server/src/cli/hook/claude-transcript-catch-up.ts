// Claude Code runs its Stop hooks before it has appended the turn's last entries to the
// transcript (a known upstream race: the hook often sees the turn's tool call but not its answer).
// The payload's last_assistant_message is the answer; the turn's completion id is only in the
// transcript. So when the transcript does not show that answer yet, the hook watches the
// transcript's folder and reads again on each change to the file, for a bounded time.
import { watch } from "node:fs";
import { basename, dirname } from "node:path";
import { readTurn, type TranscriptTurn, type TurnQuery } from "./claude-transcript.ts";

export interface CatchUpQuery extends TurnQuery {
  /** The answer the turn ended with (the hook payload's last_assistant_message); null or empty: nothing to wait for. */
  answer: string | null;
  /** How long to wait for the transcript to show that answer; after it, the last read is returned. */
  waitMs: number;
}

/** The turn once the transcript shows `answer` as its last answer, or the last read after `waitMs`. */
export async function readTurnOnceWritten(path: string, query: CatchUpQuery): Promise<TranscriptTurn> {
  const { waitMs, ...turnQuery } = query;
  const answer = query.answer?.trim() ?? "";
  const shows = (turn: TranscriptTurn) => turn.assistantText.trim() === answer;
  const first = await readTurn(path, turnQuery);
  // Without an answer to look for (an older Claude Code, a turn that ended without text) there is nothing to wait for.
  if (answer === "" || shows(first) || waitMs <= 0) return first;

  return new Promise<TranscriptTurn>((resolve, reject) => {
    let latest = first;
    let reading = false;
    let changedWhileReading = false;
    let done = false;
    // The folder, not the file: a watch on the file would miss the file being replaced.
    const watcher = watch(dirname(path), { persistent: false });
    const end = (error?: unknown) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      watcher.close();
      if (error) reject(error);
      else resolve(latest);
    };
    const timer = setTimeout(() => end(), waitMs);
    const readAgain = async () => {
      if (reading) {
        changedWhileReading = true;
        return;
      }
      reading = true;
      try {
        do {
          changedWhileReading = false;
          latest = await readTurn(path, turnQuery);
          if (shows(latest)) return end();
        } while (changedWhileReading && !done);
      } catch (error) {
        end(error);
      } finally {
        reading = false;
      }
    };
    const name = basename(path);
    watcher.on("change", (_type, file) => {
      if (file === null || String(file) === name) void readAgain();
    });
    // A folder that cannot be watched leaves the read as it was.
    watcher.on("error", () => end());
    // What was appended between the first read and the watch's start.
    void readAgain();
  });
}
