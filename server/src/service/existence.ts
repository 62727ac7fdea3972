// Input that names a person or an engagement must name one that exists; otherwise the caller
// gets a ValidationError on the field that named it, and nothing is written.
import { ValidationError } from "../domain/errors.ts";
import type { DirectoryStore } from "../storage/persons/directory-store.ts";

export async function mustHavePerson(directory: DirectoryStore, id: string, field = "personId"): Promise<void> {
  if (!(await directory.personExists(id))) throw new ValidationError(field, `${field}: no such person`);
}

export async function mustHaveEngagement(directory: DirectoryStore, id: string, field = "engagementId"): Promise<void> {
  if (!(await directory.findEngagement(id))) throw new ValidationError(field, `${field}: no such engagement`);
}
