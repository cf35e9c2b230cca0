/**
 * `npm test` runs the end-to-end project beside the others (scripts/test.mjs, issue 50): CI's verdict is
 * what scripts/lib/side-by-side.mjs answers, so it is proven here with two stand-in runs (node printing and
 * exiting as told), whichever ends first.
 */
import { describe, expect, test } from 'vitest';
import { runSideBySide } from '../../scripts/lib/side-by-side.mjs';

/** A stand-in run: prints `lines` (to stderr when a line starts with "!"), one per `every` ms, then exits with `code`. */
function standIn(name: string, lines: string[], code: number, every = 10) {
  const script = `
    const lines = ${JSON.stringify(lines)};
    let i = 0;
    const next = () => {
      if (i === lines.length) process.exit(${code});
      const line = lines[i++];
      (line.startsWith('!') ? process.stderr : process.stdout).write(line.replace(/^!/, '') + '\\n');
      setTimeout(next, ${every});
    };
    next();`;
  return { command: process.execPath, args: ['-e', script, name] };
}

/** Collects what the two runs print, in the order the caller's streams received it. */
function capture() {
  const received: string[] = [];
  const sink = { write: (chunk: string | Uint8Array) => received.push(...String(chunk).split('\n').filter(Boolean)) };
  return { received, out: sink, err: sink };
}

describe('two test runs side by side', () => {
  test('the held run, ending first, is printed whole after the shown one, and its failure is the verdict', async () => {
    const { received, out, err } = capture();
    const run = runSideBySide({
      shown: standIn('shown', ['shown 1', 'shown 2', 'shown 3'], 0, 60),
      held: standIn('held', ['held 1', '!held failed'], 1, 5),
      heading: '-- held --',
      out,
      err,
    });
    expect(await run.done).toBe(1);
    expect(received).toEqual(['shown 1', 'shown 2', 'shown 3', '-- held --', 'held 1', 'held failed']);
  });

  test('the held run, ending last, streams the rest live; both passing is 0', async () => {
    const { received, out, err } = capture();
    const run = runSideBySide({
      shown: standIn('shown', ['shown 1'], 0, 5),
      held: standIn('held', ['held 1', 'held 2', 'held 3', 'held 4'], 0, 80),
      heading: '-- held --',
      out,
      err,
    });
    expect(await run.done).toBe(0);
    expect(received).toEqual(['shown 1', '-- held --', 'held 1', 'held 2', 'held 3', 'held 4']);
  });

  test("the shown run's failure is the verdict when the held one passes", async () => {
    const { out, err } = capture();
    const run = runSideBySide({ shown: standIn('shown', ['!boom'], 3), held: standIn('held', ['fine'], 0), heading: '--', out, err });
    expect(await run.done).toBe(3);
  });

  test("each run gets the shared environment and its own additions", async () => {
    const { received, out, err } = capture();
    const printsEnv = (name: string, env?: Record<string, string>) => ({
      command: process.execPath,
      args: ['-e', `console.log('${name}', process.env.SHARED, process.env.OWN ?? 'none')`],
      env,
    });
    const run = runSideBySide({
      shown: printsEnv('shown', { OWN: 'shown-file' }),
      held: printsEnv('held'),
      heading: '--',
      env: { ...process.env, SHARED: 'both' },
      out,
      err,
    });
    expect(await run.done).toBe(0);
    expect(received).toEqual(['shown both shown-file', '--', 'held both none']);
  });
});
