/**
 * `events()` skips a kind newer than this build and resumes after it
 * (tests/sdk/test_typescript_sdk.py runs it): a stand-in server sends, on its first connection,
 * a known event, one of a kind from the future and the stream's end; on the next, one more known
 * event. Prints one JSON line: the kinds `events()` yielded and the `after` of each connection.
 *
 *   node dist/test/newer_kinds.js
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { CardGames } from "../src/index.js";

const STREAMS: string[][] = [
  [
    JSON.stringify({ id: 5, kind: "followed", game: null, data: { by: "bob" } }),
    JSON.stringify({ id: 6, kind: "from_the_future", game: null, data: {} }),
    JSON.stringify({ kind: "end", reason: "time" }),
  ],
  [JSON.stringify({ id: 7, kind: "followed", game: null, data: { by: "carol" } })],
];

const afters: string[] = [];
const server = createServer((request, response) => {
  const url = new URL(request.url ?? "/", "http://stand-in");
  afters.push(url.searchParams.get("after") ?? "");
  response.writeHead(200, { "Content-Type": "application/x-ndjson" });
  // The second connection stays open, as the real stream does between events.
  response.write(STREAMS[Math.min(afters.length, STREAMS.length) - 1].map((line) => `${line}\n`).join(""));
  if (afters.length === 1) response.end();
});
server.listen(0, "127.0.0.1", async () => {
  const { port } = server.address() as AddressInfo;
  const api = new CardGames(`http://127.0.0.1:${port}`, "uaw_stand_in");
  const stop = new AbortController();
  const kinds: string[] = [];
  try {
    for await (const event of api.events(4, stop.signal)) {
      kinds.push(`${event.kind}:${event.id}`);
      if (kinds.length === 2) break;
    }
  } finally {
    stop.abort();
    server.closeAllConnections();
    server.close();
  }
  console.log(JSON.stringify({ kinds, afters }));
});
