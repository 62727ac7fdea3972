// /api/graphql/stream -> Herald /graphql/stream (graphql-sse). Distinct-connections mode is a
// streaming POST (or GET); single-connection mode reserves with PUT, streams with GET, sends
// operations with POST and stops them with DELETE, all carrying x-graphql-event-stream-token.
import { proxyToHerald } from "$lib/server/proxy";
import { heraldStreamUrl } from "$lib/server/herald";
import type { RequestHandler } from "./$types";

const pass: RequestHandler = (event) => proxyToHerald(event, heraldStreamUrl());

export const GET = pass;
export const POST = pass;
export const PUT = pass;
export const DELETE = pass;
