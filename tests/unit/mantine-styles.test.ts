/**
 * Issue 45 item 1: every Mantine component the site renders has its styles where it is used. The site loads
 * Mantine's styles per component (src/theme/mantine-root.tsx), so a component new to a screen drew as bare
 * browser boxes (the "Add a device" form: no Input, Combobox or Code styles, a 319 px chevron on a phone).
 *
 * Read from the sources and from Mantine's own modules: for each of our modules that imports a Mantine
 * component, the class names that component (and every Mantine part it is built from) draws with, from
 * Mantine's `*.module.mjs` files; and the stylesheets that are loaded whenever the module is: what the page's
 * entry (src/boot.ts) and the Mantine root (src/theme/mantine-root.tsx, around every Mantine part) import,
 * and what the module itself and its static imports import. Every class must be in one of those stylesheets.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const root = process.cwd();
const src = join(root, 'src');
const MANTINE_PACKAGES = ['@mantine/core', '@mantine/notifications'] as const;
type MantinePackage = (typeof MANTINE_PACKAGES)[number];

const read = (file: string) => readFileSync(file, 'utf8');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The names a module imports as values (not `import type`, not `type X`) from a package. */
function valueImportsFrom(code: string, pkg: string): string[] {
  const names: string[] = [];
  const escaped = pkg.replace(/[/.]/g, '\\$&');
  for (const match of code.matchAll(new RegExp(`import\\s+(type\\s+)?\\{([^}]*)\\}\\s*from\\s*['"]${escaped}['"]`, 'g'))) {
    if (match[1]) continue;
    for (const part of match[2]!.split(',')) {
      const name = part.trim();
      if (!name || name.startsWith('type ')) continue;
      names.push(name.split(/\s+as\s+/)[0]!.trim());
    }
  }
  // `const { notifications } = await import('@mantine/notifications')`: a store, not a component; dynamic
  // imports of a component would be read here too.
  for (const match of code.matchAll(new RegExp(`\\{([^}]*)\\}\\s*=\\s*await\\s+import\\(['"]${escaped}['"]\\)`, 'g'))) {
    names.push(...match[1]!.split(',').map((part) => part.trim().split(/\s*:\s*/)[0]!).filter(Boolean));
  }
  return names;
}

const packageDir = (pkg: MantinePackage) => join(root, 'node_modules', pkg);

/** Where each name a Mantine package exports is defined (its esm/index.mjs). */
const exportsOf = new Map<MantinePackage, Map<string, string>>();
function definitionOf(pkg: MantinePackage, name: string): string | undefined {
  let exported = exportsOf.get(pkg);
  if (!exported) {
    exported = new Map();
    const esm = join(packageDir(pkg), 'esm');
    for (const match of read(join(esm, 'index.mjs')).matchAll(/import\s*\{([^}]*)\}\s*from\s*"(\.[^"]+)"/g)) {
      for (const part of match[1]!.split(',')) {
        const [imported, local] = part.trim().split(/\s+as\s+/);
        if (imported) exported.set((local ?? imported).trim(), resolve(esm, match[2]!));
      }
    }
    exportsOf.set(pkg, exported);
  }
  return exported.get(name);
}

/**
 * Every Mantine module a component's module imports, through relative and cross-package imports. A compound
 * component's own parts (components/Menu/MenuSearch/ for `Menu.Search`) are drawn only when the code that uses
 * it writes them: `usedIn` is that code, and a part it never names is left out.
 */
function mantineClosure(file: string, usedIn?: { code: string; name: string }, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  if (usedIn) {
    const part = new RegExp(`/components/${usedIn.name}/${usedIn.name}([A-Z]\\w*)/`).exec(file)?.[1];
    if (part && !usedIn.code.includes(`${usedIn.name}.${part}`)) return seen;
  }
  seen.add(file);
  const code = read(file);
  for (const match of code.matchAll(/from\s*"(\.[^"]+)"/g)) mantineClosure(resolve(dirname(file), match[1]!), usedIn, seen);
  for (const pkg of MANTINE_PACKAGES) {
    for (const name of valueImportsFrom(code.replaceAll('"', "'"), pkg)) {
      const definition = definitionOf(pkg, name);
      if (definition) mantineClosure(definition, usedIn, seen);
    }
  }
  return seen;
}

/** The class names a Mantine `*.module.mjs` file maps its selectors to (`{ root: "m_77c9d27d", … }`). */
const classesIn = (moduleFile: string) => [...read(moduleFile).matchAll(/"(m_[0-9a-f]+)"/g)].map((match) => match[1]!);

/** The stylesheet Mantine ships for a `*.module.mjs` file: components/Input/Input.module.mjs -> styles/Input.layer.css. */
const stylesheetFor = (moduleFile: string) => moduleFile.split('/').at(-1)!.replace('.module.mjs', '.layer.css');

/** What one of our modules statically imports: its own files (resolved) and the stylesheets. */
function importsOf(file: string): { files: string[]; stylesheets: string[] } {
  const code = read(file).replace(/^\s*import\s+type\s[^;]*;/gm, '');
  const files: string[] = [];
  const stylesheets: string[] = [];
  for (const match of code.matchAll(/^\s*import\s+(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm)) {
    const specifier = match[1]!;
    if (specifier.endsWith('.css')) {
      if (specifier.startsWith('@mantine/')) stylesheets.push(join(root, 'node_modules', specifier));
      continue;
    }
    if (!specifier.startsWith('.')) continue;
    const base = resolve(dirname(file), specifier);
    const found = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')].find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
    if (found) files.push(found);
  }
  return { files, stylesheets };
}

/** The Mantine stylesheets loaded whenever a module is: its own and its static imports', transitively. */
function stylesheetsWith(file: string, seen = new Set<string>(), sheets = new Set<string>()): Set<string> {
  if (seen.has(file)) return sheets;
  seen.add(file);
  const { files, stylesheets } = importsOf(file);
  for (const sheet of stylesheets) sheets.add(sheet);
  for (const imported of files) stylesheetsWith(imported, seen, sheets);
  return sheets;
}

/** The class names (and keyframes' names, which the module files list beside them) a set of stylesheets defines. */
const classesOfSheets = (sheets: Iterable<string>) => new Set([...sheets].flatMap((sheet) => [...read(sheet).matchAll(/\b(m_[0-9a-f]+)\b/g)].map((match) => match[1]!)));

/** Loaded on every page (the entry) and around every Mantine part (the one MantineProvider). */
const ALWAYS = [join(src, 'boot.ts'), join(src, 'theme', 'mantine-root.tsx')];

/** For one of our modules, each Mantine component it imports whose styles are not loaded with it, and the sheets missing. */
function missingStyles(file: string): string[] {
  const code = read(file);
  const loaded = classesOfSheets([...ALWAYS.flatMap((always) => [...stylesheetsWith(always)]), ...stylesheetsWith(file)]);
  const missing: string[] = [];
  for (const pkg of MANTINE_PACKAGES) {
    for (const name of valueImportsFrom(code, pkg)) {
      const definition = definitionOf(pkg, name);
      if (!definition) continue;
      const sheets = [...mantineClosure(definition, { code, name })]
        .filter((part) => part.endsWith('.module.mjs'))
        .filter((part) => classesIn(part).some((className) => !loaded.has(className)))
        .map(stylesheetFor);
      if (sheets.length > 0) missing.push(`${relative(root, file)}: ${name} needs ${[...new Set(sheets)].sort().join(', ')}`);
    }
  }
  return missing;
}

describe("Mantine's styles", () => {
  const files = sourceFiles(src);

  test('the reading works: Select is built from Input, Combobox and Popover; Code from Code; a Notification from its own', () => {
    const sheetsOf = (pkg: MantinePackage, name: string) => [...mantineClosure(definitionOf(pkg, name)!)].filter((part) => part.endsWith('.module.mjs')).map(stylesheetFor);
    expect(sheetsOf('@mantine/core', 'Select')).toEqual(expect.arrayContaining(['Input.layer.css', 'Combobox.layer.css', 'Popover.layer.css']));
    expect(sheetsOf('@mantine/core', 'Code')).toEqual(['Code.layer.css']);
    expect(sheetsOf('@mantine/notifications', 'Notifications')).toEqual(expect.arrayContaining(['Notifications.layer.css', 'Notification.layer.css']));
    // A part of a compound component counts only where it is written: Menu.Search draws an Input.
    const menu = (code: string) => [...mantineClosure(definitionOf('@mantine/core', 'Menu')!, { code, name: 'Menu' })].some((part) => part.endsWith('Input.module.mjs'));
    expect(menu('<Menu.Dropdown><Menu.Item /></Menu.Dropdown>')).toBe(false);
    expect(menu('<Menu.Dropdown><Menu.Search /></Menu.Dropdown>')).toBe(true);
    // And our modules are read: the dialog imports Select.
    expect(valueImportsFrom(read(join(src, 'screens', 'add-device-dialog.tsx')), '@mantine/core')).toContain('Select');
  });

  test('every Mantine component a module imports has its stylesheets loaded with that module', () => {
    const users = files.filter((file) => MANTINE_PACKAGES.some((pkg) => valueImportsFrom(read(file), pkg).length > 0));
    expect(users.length).toBeGreaterThan(20);
    expect(users.flatMap(missingStyles)).toEqual([]);
  });
});
