/**
 * The tiny name server and its stub as programs, for processes inside the relay tests' network namespaces
 * (run by Node itself, which strips the types): `serve NAME ADDRESS PORT HOST` | `lookup NAME SERVER`.
 */
import { lookupA, startTinyDns } from './tiny-dns.ts';

const [command, ...args] = process.argv.slice(2);
if (command === 'serve') {
  await startTinyDns(args[0]!, args[1]!, Number(args[2]), args[3]!);
  process.stdout.write('serving\n');
} else {
  process.stdout.write(`${await lookupA(args[0]!, args[1]!)}\n`);
}
