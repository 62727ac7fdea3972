// Who is calling, as established from the request's credential.
export type Caller =
  | { kind: "person"; personId: string; credentialId: string }
  /** `plugin`: the one plugin a bound key may act for; null for an admin key. */
  | { kind: "producer"; credentialId: string; name: string; plugin: string | null };

export type ProducerCaller = Extract<Caller, { kind: "producer" }>;
