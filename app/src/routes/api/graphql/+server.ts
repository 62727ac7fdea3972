// POST /api/graphql -> Herald /graphql with the person's token from the cookie.
import { proxyToHerald } from "$lib/server/proxy";
import { heraldUrl } from "$lib/server/herald";
import type { RequestHandler } from "./$types";

export const POST: RequestHandler = (event) => proxyToHerald(event, heraldUrl());
