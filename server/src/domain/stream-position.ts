// Where a client stands in its event stream: what its cursor carries (service/cursor.ts signs it)
// and what a person stream resumes from (realtime/quiet-hold.ts explains the hold).

/**
 * Where a client stands in its stream. `seq`: every event up to it has been sent, or is held.
 * With a hold, the events after `hold.through` of notifications created after `hold.from` have
 * not been sent yet (they are held, or being released in order); `from <= through <= seq`.
 */
export interface StreamPosition {
  seq: number;
  hold: { from: number; through: number } | null;
}
