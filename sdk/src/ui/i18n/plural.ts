// Plural choice through the language's own rules (Intl.PluralRules), so a catalogue names the
// forms its language has ("one", "few", "many", ...) instead of testing `count === 1`.

/** The forms of one message; `other` is required because every language has it. */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

export function pluralOf(locale: string): (count: number, forms: PluralForms) => string {
  const rules = new Intl.PluralRules(locale);
  return (count, forms) => forms[rules.select(count)] ?? forms.other;
}
