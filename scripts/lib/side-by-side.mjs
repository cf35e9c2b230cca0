/**
 * Two test runs side by side, one of them held (scripts/test.mjs): `shown` streams its output as it comes;
 * `held`'s output is kept and printed whole once `shown` has ended, then live, so the two runs' failures are
 * never interleaved. Resolves with the first failing run's exit code (`shown`'s first), 0 when both passed.
 */
import { spawn } from 'node:child_process';

/** A run: the program and its arguments, its output piped to the caller; `env`, if given, is added to the runs' own. */
function start({ command, args, env: own = {} }, env) {
  return spawn(command, args, { env: { ...env, ...own }, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Its exit code once its output is all read ('close', not 'exit', which can come before the last chunk). */
const exitOf = (child) => new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))));

/**
 * `heading`: printed between `shown`'s output and `held`'s. `out` and `err`: where both go (the process's own
 * streams; a test passes its own). Returns the children too, for a caller that must stop them on a signal.
 */
export function runSideBySide({ shown, held, heading, env = process.env, out = process.stdout, err = process.stderr }) {
  const heldChild = start(held, env);
  const shownChild = start(shown, env);
  shownChild.stdout.on('data', (chunk) => out.write(chunk));
  shownChild.stderr.on('data', (chunk) => err.write(chunk));
  // Listened for from the start: either run may end first, and an exit nobody listened for is never heard.
  const heldExit = exitOf(heldChild);
  const shownExit = exitOf(shownChild);

  const kept = [];
  let live = false;
  const keep = (stream) => (chunk) => (live ? stream.write(chunk) : kept.push([stream, chunk]));
  heldChild.stdout.on('data', keep(out));
  heldChild.stderr.on('data', keep(err));

  const done = (async () => {
    const shownCode = await shownExit;
    out.write(`\n${heading}\n\n`);
    for (const [stream, chunk] of kept) stream.write(chunk);
    live = true;
    const heldCode = await heldExit;
    return shownCode || heldCode;
  })();
  return { done, children: [heldChild, shownChild] };
}
