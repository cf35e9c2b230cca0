/**
 * The load generator of `npm run bench:api`, in a process of its own (in the API's process it would share
 * its event loop): autocannon against one URL for a fixed time, no pipelining, its JSON report on stdout.
 * Given a file of session tokens, it POSTs verify bodies: one token's body built once (as autocannon's CLI
 * does), or, with several, bodies that take the tokens in turn, so the requests in flight at once carry
 * different sessions of different accounts, as real traffic does (autocannon then builds every request
 * anew, which costs the load generator, on the same machine, more CPU per request than a fixed one).
 *
 *   node scripts/bench-load.mjs <url> <connections> <seconds> [tokens.json]
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const [url, connections, seconds, tokensFile] = process.argv.slice(2);
const tokens = tokensFile ? JSON.parse(readFileSync(tokensFile, 'utf8')) : null;
let next = 0;
const verify = {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  ...(tokens?.length === 1
    ? { body: JSON.stringify({ sessionToken: tokens[0] }) }
    : { setupRequest: (request) => ({ ...request, body: JSON.stringify({ sessionToken: tokens[next++ % tokens.length] }) }) }),
};

const report = await autocannon({
  url,
  connections: Number(connections),
  pipelining: 1,
  duration: Number(seconds),
  ...(tokens ? { requests: [verify] } : {}),
});
process.stdout.write(JSON.stringify(report));
