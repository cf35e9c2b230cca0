/**
 * The docs are held to the code (issue 49 item 6): every repository path a doc names exists, and the machine
 * lists of README.md and machines/README.md are the machine catalogue (machines/catalogue.ts), with every
 * state of every machine named in its machines/README.md section. A doc that names a file after it was
 * renamed, or a machine list that misses the newest machine, fails here rather than misleading a reader.
 * (tests/unit/room-rules.test.ts holds the rooms' READMEs' import rules to the lint.)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import { MACHINES } from '../../machines/catalogue';
import { treeFiles } from '../support/scratch-project';

/** Paths a doc may name before they are in the tree, each with the branch that brings it. */
const NOT_YET_IN_THE_TREE: Record<string, string> = {};

const files = treeFiles();
const folders = new Set(files.flatMap((file) => file.split('/').slice(0, -1).map((_, index, parts) => parts.slice(0, index + 1).join('/'))));
const topLevel = new Set(files.map((file) => file.split('/')[0]!));
const packageJson = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
const packages = new Set([...Object.keys(packageJson.dependencies), ...Object.keys(packageJson.devDependencies)]);
const DOCS = files.filter((file) => /^docs\/[^/]+\.md$/.test(file) || file.endsWith('README.md'));
/** A file name a doc may name: a source, config, doc or asset. */
const FILE_NAME = /\.(tsx?|mts|mjs|js|json|jsonc|md|css|sql|ya?ml|html|svg|sh|png)$/;

/** The code spans (outside fenced blocks; one may run over a line break) and link targets of a Markdown text. */
function namedIn(text: string): string[] {
  const prose = text.replace(/^```[\s\S]*?^```/gm, '');
  return [...prose.matchAll(/`((?:[^`\n]|\n(?!\n))+)`/g), ...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!.replaceAll('\n', ' '));
}

const exists = (path: string) =>
  ['', '.ts', '.tsx', '.mjs', '.js', '/index.ts'].some((extension) => files.includes(path + extension)) || folders.has(path.replace(/\/$/, ''));

/** The repository paths a doc names, as written: in the tree's top-level folders, or file names, or folders. */
function repositoryPaths(doc: string): string[] {
  return namedIn(readFileSync(doc, 'utf8'))
    .map((name) => name.replace(/[#:].*$/, '').replace(/[,.;]$/, ''))
    .filter((name) => /^[\w.@-][\w.@/-]*$/.test(name) && !/^https?:|^mailto:|^node:/.test(name))
    .filter((name) => {
      const [first] = name.split('/');
      if (packages.has(first!) || packages.has(name.split('/').slice(0, 2).join('/'))) return false;
      return (topLevel.has(first!) && name.includes('/')) || FILE_NAME.test(name) || name.endsWith('/');
    });
}

/** Of `paths`, those git ignores (what the build or a run makes: dist/, data/, ...). */
function ignored(paths: string[]): Set<string> {
  // git refuses the whole list when one path is outside the repository (a doc's `../docs/...`), so those stay out.
  const inside = paths.filter((path) => !path.startsWith('../'));
  if (inside.length === 0) return new Set();
  try {
    return new Set(execFileSync('git', ['check-ignore', '--no-index', '--stdin'], { input: inside.join('\n'), encoding: 'utf8' }).split('\n'));
  } catch {
    return new Set(); // exit 1: none is ignored
  }
}

function missingIn(doc: string): string[] {
  const named = [...new Set(repositoryPaths(doc))];
  const madeByARun = ignored(named);
  return named.filter((name) => {
    if (madeByARun.has(name) || name in NOT_YET_IN_THE_TREE) return false;
    // npm ci makes node_modules (a link to another checkout's in some work trees, which git does not take as ignored).
    if (name.startsWith('node_modules/')) return !existsSync(name);
    if (topLevel.has(name.split('/')[0]!) && name.includes('/')) return !exists(name);
    const suffix = name.replace(/^\.\//, '').replace(/\/$/, '');
    const besideTheDoc = posix.normalize(posix.join(posix.dirname(doc), name));
    return !(exists(besideTheDoc) || files.some((file) => file === suffix || file.endsWith(`/${suffix}`)) || [...folders].some((folder) => folder.endsWith(`/${suffix}`)));
  });
}

/** Every state node's key of a machine, at any depth. */
function statesOf(machine: AnyStateMachine): string[] {
  const keys: string[] = [];
  const walk = (node: { states?: Record<string, unknown> }) => {
    for (const [key, child] of Object.entries(node.states ?? {})) {
      keys.push(key);
      walk(child as { states?: Record<string, unknown> });
    }
  };
  walk(machine.root as { states?: Record<string, unknown> });
  return keys;
}

const catalogue = MACHINES.map(({ name }) => name).toSorted();
const machinesReadme = readFileSync('machines/README.md', 'utf8');

describe('the docs name only what exists', () => {
  it('reads every doc: README.md, docs/*.md and the rooms\' READMEs', () => {
    expect(DOCS).toEqual(expect.arrayContaining(['README.md', 'docs/architecture.md', 'src/app/README.md', 'machines/README.md', 'src/features/account/README.md']));
  });

  it.each(DOCS)('every repository path %s names exists', (doc) => {
    expect(missingIn(doc)).toEqual([]);
  });

  it('a path named before its folder is in the tree is still waiting for it', () => {
    expect(Object.keys(NOT_YET_IN_THE_TREE).filter(exists), 'remove these entries: they are in the tree').toEqual([]);
  });
});

describe('the machine lists are the catalogue', () => {
  it("README.md's list of the flows names every catalogued machine, and only those", () => {
    const row = readFileSync('README.md', 'utf8').split('\n').find((line) => line.startsWith('| the flows |'))!;
    const listed = namedIn(row).filter((name) => /^[a-z-]+$/.test(name));
    expect(listed.toSorted()).toEqual(catalogue);
  });

  it("machines/README.md's table has a row for each catalogued machine, and only those", () => {
    const rows = machinesReadme.split('\n').filter((line) => /^\| `[a-z-]+\.ts` \| `\w+Machine` /.test(line));
    expect(rows.map((row) => row.match(/^\| `([a-z-]+)\.ts`/)![1]).toSorted()).toEqual(catalogue);
  });

  it.each(MACHINES.map(({ name, machine }) => ({ name, machine })))('machines/README.md has a section for $name naming each of its states', ({ name, machine }) => {
    const section = machinesReadme.split(/^## /m).find((part) => part.startsWith(`${name} (\``));
    expect(section, `a "## ${name} (\`${name}.ts\`)" section`).toBeDefined();
    const named = new Set(namedIn(section!).flatMap((span) => span.split(/[^A-Za-z0-9_]+/)));
    expect(statesOf(machine).filter((state) => !named.has(state))).toEqual([]);
  });
});
