// Who is calling, as established from the request's credential.
export type Caller =
  | { kind: "person"; personId: string; credentialId: string }
  | { kind: "producer"; credentialId: string; name: string };
