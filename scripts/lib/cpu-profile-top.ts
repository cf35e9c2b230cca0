/**
 * The top entries of a V8 CPU profile (`node --cpu-prof`) by self time, as shares of the process's busy
 * time (idle samples left out): function, file and line, summed over every node of the same function.
 * `sinceMicros` (the monotonic clock, as `process.hrtime`, which V8's profiler also uses on Linux) leaves
 * out what came before, e.g. the start-up and the warm-up.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where a function lives, short: the package for node_modules, the path from the repository otherwise. */
function place(url: string, line: number): string {
  if (!url) return '';
  const modules = url.lastIndexOf('node_modules/');
  const path = modules >= 0 ? url.slice(modules + 'node_modules/'.length) : url.replace(/^file:\/\/.*?\/(server|contract|dist-api)\//, '$1/');
  return `${path}:${line + 1}`;
}

export function topEntries(file: string, count = 15, sinceMicros = 0): Array<{ name: string; share: number }> {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfTime = new Map<string, number>();
  let busy = 0;
  let time = profile.startTime;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    time += delta;
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)' || time < sinceMicros) return;
    // A regular expression's name is its source, which can run to kilobytes.
    const name = `${(frame.functionName || '(anonymous)').slice(0, 60)} ${place(frame.url, frame.lineNumber)}`.trim();
    selfTime.set(name, (selfTime.get(name) ?? 0) + delta);
    busy += delta;
  });
  return [...selfTime.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, time]) => ({ name, share: time / busy }));
}
