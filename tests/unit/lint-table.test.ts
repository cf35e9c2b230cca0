/**
 * The lint table cannot go stale (issue 49 item 1): every folder glob of .oxlintrc.json matches a file of the
 * tree, and every pattern of its import rules matches an import some file of that rule could write of a file
 * of the tree. A rule whose folder was renamed or split (`**\/app/*` after src/app got subfolders) matches
 * nothing and switches itself off without a sound; this test is that sound. It enumerates the tree with git
 * (tracked files and new ones), folders with path.matchesGlob, and import patterns with the semantics oxlint
 * gives them (gitignore style: `**` crosses `..`, `*` stays in one segment; `regex` as written).
 */
import { builtinModules } from 'node:module';
import { readFileSync } from 'node:fs';
import { matchesGlob, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { treeFiles } from '../support/scratch-project';

/**
 * Rules written for a folder that does not exist yet, each with the branch that brings it. Remove the entry
 * when its folder lands: the last test fails while an entry is no longer needed.
 */
const NOT_YET_IN_THE_TREE: Record<string, string> = {};

interface Pattern {
  group?: string[];
  regex?: string;
}
interface Override {
  files: string[];
  rules: Record<string, unknown>;
}

const config = JSON.parse(readFileSync('.oxlintrc.json', 'utf8')) as { overrides: Override[] };
const packageJson = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string>; dependencies: Record<string, string>; devDependencies: Record<string, string> };
const packages = new Set([...Object.keys(packageJson.dependencies), ...Object.keys(packageJson.devDependencies)]);
const files = treeFiles();
/** What an import can name: a module (with its extension or without), or a folder with an index module. */
const MODULE = /\.(tsx?|mts|mjs|js|json|css)$/;
const modules = files.filter((file) => MODULE.test(file) && !file.endsWith('.d.ts'));
const targets = [...new Set([...modules, ...modules.map((file) => file.replace(/(\.d)?\.(tsx?|mts|mjs|js)$/, '')), ...modules.filter((file) => /\/index\.\w+$/.test(file)).map(posix.dirname)])];

const patternsOf = (override: Override): Pattern[] => {
  const rule = override.rules['no-restricted-imports'] as [string, { patterns: Pattern[] }] | undefined;
  return rule?.[1].patterns ?? [];
};
const filesOf = (override: Override) => files.filter((file) => override.files.some((glob) => matchesGlob(file, glob)));
/**
 * The folders a file of the rule stands in, with the modules it could import; for a folder not yet in the tree,
 * the folder its glob names, with a module of its own beside the tree's.
 */
const importingFolders = (override: Override) => {
  const found = [...new Set(filesOf(override).map((file) => posix.dirname(file)))];
  if (found.length > 0) return found.map((from) => ({ from, importable: targets }));
  return override.files.map((glob) => glob.replace(/\/?\*.*$/, '')).map((from) => ({ from, importable: [...targets, `${from}/a-module`] }));
};

/** A gitignore-style import pattern as oxlint reads it, for a specifier (the pattern written without `!`). */
function specifierMatcher(pattern: string): RegExp {
  const body = pattern
    .split(/(\*\*\/|\/\*\*$|\*)/)
    .map((part) => {
      if (part === '**/') return '(?:[^/]*/)*';
      if (part === '/**') return '/.*';
      if (part === '*') return '[^/]*';
      return part.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${body}$`);
}

/** Whether `pattern` names a package (or a node: built-in) that the project has. */
function namesAPackage(pattern: string): boolean {
  if (pattern === '*') return true;
  if (pattern.startsWith('node:')) return builtinModules.length > 0;
  const name = pattern.startsWith('@') ? pattern.split('/').slice(0, 2).join('/') : pattern.split('/')[0]!;
  return packages.has(name);
}

/** Whether some file of the rule could import some module of the tree by a specifier `matches`. */
function matchesAnImport(override: Override, matches: (specifier: string) => boolean): boolean {
  return importingFolders(override).some(({ from, importable }) =>
    importable.some((target) => {
      const relative = posix.relative(from, target);
      return matches(relative.startsWith('.') ? relative : `./${relative}`);
    }),
  );
}

const rules = config.overrides.map((override) => ({ name: override.files.join(', '), override }));

describe('.oxlintrc.json matches the tree', () => {
  it.each(rules)('the folders of the rule for $name hold files', ({ override }) => {
    const empty = override.files.filter((glob) => !files.some((file) => matchesGlob(file, glob)) && !(glob in NOT_YET_IN_THE_TREE));
    expect(empty).toEqual([]);
  });

  it.each(rules.filter(({ override }) => patternsOf(override).length > 0))('every import pattern of the rule for $name matches a file of the tree', ({ override }) => {
    const unmatched: string[] = [];
    for (const pattern of patternsOf(override)) {
      for (const entry of pattern.group ?? []) {
        const written = entry.replace(/^!/, '');
        const named = written !== '*' && /^[./*]/.test(written) ? matchesAnImport(override, (specifier) => specifierMatcher(written).test(specifier)) : namesAPackage(written);
        if (!named) unmatched.push(entry);
      }
      if (pattern.regex !== undefined && !matchesAnImport(override, (specifier) => new RegExp(pattern.regex!).test(specifier))) unmatched.push(pattern.regex);
    }
    expect(unmatched).toEqual([]);
  });

  it('npm run lint lints the folder of every rule', () => {
    const linted = packageJson.scripts.lint!.split('&&')[0]!.split(' ').filter((word) => /^[a-z]/.test(word) && word !== 'oxlint');
    const unlinted = config.overrides
      .flatMap((override) => override.files)
      .filter((glob) => !(glob in NOT_YET_IN_THE_TREE))
      .map((glob) => glob.split('/')[0]!)
      .filter((folder) => !linted.includes(folder));
    expect(unlinted).toEqual([]);
  });

  it('a rule for a folder not yet in the tree is still waiting for it', () => {
    const arrived = Object.keys(NOT_YET_IN_THE_TREE).filter((glob) => files.some((file) => matchesGlob(file, glob)));
    expect(arrived, 'remove these entries from NOT_YET_IN_THE_TREE: their folders are in the tree').toEqual([]);
    const unused = Object.keys(NOT_YET_IN_THE_TREE).filter((glob) => !config.overrides.some((override) => override.files.includes(glob)));
    expect(unused, 'these entries name no rule of .oxlintrc.json').toEqual([]);
  });
});
