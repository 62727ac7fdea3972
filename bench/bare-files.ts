// The attachment benchmark's floor: a bare node:http server that serves one file with
// fs.createReadStream (GET /file) and answers a trivial JSON request (POST /json). No GraphQL, no
// credentials, no database: Herald's slowdown during downloads divided by this one's says what
// Herald adds to what node itself costs for the same bytes on the same machine.
// BARE_FILE names the file. Started by bare-process.ts; prints `BARE_READY <url>` once it listens.
import { createReadStream, statSync } from "node:fs";
import { createServer } from "node:http";

const file = process.env.BARE_FILE!;
const size = statSync(file).size;
const answer = JSON.stringify({ data: { notificationCounts: { total: 0 } } });

const server = createServer((request, response) => {
  if (request.method === "GET" && request.url === "/file") {
    response.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(size) });
    createReadStream(file).pipe(response);
    return;
  }
  if (request.method === "POST" && request.url === "/json") {
    // Read the body like a GraphQL server would before answering.
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      JSON.parse(Buffer.concat(chunks).toString() || "{}");
      response.writeHead(200, { "content-type": "application/json" }).end(answer);
    });
    return;
  }
  response.writeHead(404).end();
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  if (address && typeof address === "object") console.log(`BARE_READY http://127.0.0.1:${address.port}/`);
});
const stop = () => server.close(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
