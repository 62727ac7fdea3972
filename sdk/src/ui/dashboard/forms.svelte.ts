// What the person typed into a follow-up's form, one state per notification and action: the
// banner and the inbox copy of a notification show the same values, and they survive the card
// being re-rendered (a new revision, a list reloading).
export type FormValues = Record<string, string | boolean>;

export class FormStates {
  private readonly states = new Map<string, FormValues>();

  of(notificationId: string, actionId: string): FormValues {
    const key = `${notificationId}\u0000${actionId}`;
    const known = this.states.get(key);
    if (known) return known;
    const values: FormValues = $state({});
    this.states.set(key, values);
    return values;
  }
}
