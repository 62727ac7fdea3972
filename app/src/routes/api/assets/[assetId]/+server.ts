// Placeholder for DOWNLOAD_ATTACHMENT_ASSET follow-ups: Herald has no attachment store yet, so
// the links cards render land here and say so instead of failing silently.
import type { RequestHandler } from "./$types";

export const GET: RequestHandler = ({ params, locals }) => {
  const status = locals.token ? 501 : 401;
  const message = locals.token
    ? `Attachment ${params.assetId} cannot be downloaded yet: Herald does not store attachments.`
    : "Sign in to download attachments.";
  return new Response(message, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
};
