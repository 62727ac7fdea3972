// Credentials over the API: a producer issues a person token or a one-time sign-in code; anyone
// holding a code redeems it for a person token; any credential can revoke itself (sign-out).
// Secrets appear only in these results.
import { requireCaller } from "../../service/auth-service.ts";
import { requireProducer } from "../../service/producer-rights.ts";
import { builder } from "./builder.ts";

export const IssuedCredentialRef = builder.objectRef<{ id: string; kind: string; secret: string }>("IssuedCredential").implement({
  description: "A new credential. The token is shown only here, once.",
  fields: (t) => ({
    id: t.exposeID("id"),
    kind: t.exposeString("kind"),
    token: t.exposeString("secret"),
  }),
});

export const SignInCodeRef = builder.objectRef<{ code: string; expiresAt: Date }>("SignInCode").implement({
  description: "A one-time sign-in code. Shown only here.",
  fields: (t) => ({
    code: t.exposeString("code"),
    expiresAt: t.expose("expiresAt", { type: "DateTime" }),
  }),
});

builder.mutationFields((t) => ({
  issuePersonToken: t.field({
    type: IssuedCredentialRef,
    args: { personId: t.arg.id({ required: true }), name: t.arg.string({ required: false }) },
    description: "A sign-in token for a person. The token is returned only here.",
    resolve: (_root, args, ctx) => {
      requireProducer(ctx.caller, "issuePersonToken");
      return ctx.services.auth.issuePersonToken(String(args.personId), args.name ?? undefined);
    },
  }),

  issueSignInCode: t.field({
    type: SignInCodeRef,
    args: { personId: t.arg.id({ required: true }) },
    description: "A one-time sign-in code for a person (valid 24 hours); the dashboard serves it at /signin/<code>.",
    resolve: (_root, args, ctx) => {
      requireProducer(ctx.caller, "issueSignInCode");
      return ctx.services.auth.issueSignInCode(String(args.personId));
    },
  }),

  signOut: t.boolean({
    description:
      "Revokes the credential that sent this request (a dashboard's sign-out); its open streams end on every instance. False if it was already revoked.",
    resolve: (_root, _args, ctx) => ctx.services.auth.revokeOwn(requireCaller(ctx.caller)),
  }),

  redeemSignInCode: t.field({
    type: IssuedCredentialRef,
    args: { code: t.arg.string({ required: true }) },
    description: "Exchanges a one-time sign-in code for a person token. Needs no credential.",
    resolve: async (_root, args, ctx) => {
      await ctx.signIn.admit(args.code, ctx.clientAddress);
      return ctx.services.auth.redeemSignInCode(args.code);
    },
  }),
}));
