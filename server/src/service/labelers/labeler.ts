// A labeler names a session from its latest exchange. Every answer is checked by the domain
// (decideLabelResult) before it is stored, whoever produced it.
import type { LabelAnswer, Material } from "../../domain/session-labels.ts";

export interface LabelRequest {
  harness: string;
  /** The current label ("" when none): a labeler may answer KEEP to leave it as it is. */
  currentLabel: string;
  /** The last path component of the session's working directory. */
  project: string;
  material: Material;
}

export interface Labeler {
  readonly name: string;
  /** Rejects on failure (network, timeout, an answer that is not one); the caller keeps the prior label. */
  label(request: LabelRequest): Promise<LabelAnswer>;
}
