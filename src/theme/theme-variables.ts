/**
 * The CSS variables of our theme, computed at build time (vite.config.ts serves them as
 * `virtual:theme-variables.css`) instead of by MantineProvider at run time. The shell and the home page
 * render before any Mantine code has loaded (docs/performance.md), yet they are drawn with Mantine's
 * variables, so those variables must already be in the page's CSS.
 *
 * The result is exactly what MantineProvider would write into its <style> element: the variables our
 * theme and `cssVariablesResolver` change, beside Mantine's defaults, which come from
 * `@mantine/core/styles/default-css-variables.layer.css`. tests/unit/theme-variables.test.ts holds the two
 * equal.
 */
import {
  DEFAULT_THEME,
  convertCssVariables,
  defaultCssVariablesResolver,
  mergeMantineTheme,
  type ConvertCSSVariablesInput,
} from '@mantine/core';
import { cssVariablesResolver, theme } from './theme.ts';

type Variables = Record<string, string>;

function changedFrom(defaults: Variables, values: Variables): Variables {
  return Object.fromEntries(Object.entries(values).filter(([name, value]) => defaults[name] !== value));
}

export function themeVariablesCss(): string {
  const merged = mergeMantineTheme(DEFAULT_THEME, theme);
  const base = defaultCssVariablesResolver(merged);
  const fixes = cssVariablesResolver(merged);
  const ours: ConvertCSSVariablesInput = {
    variables: { ...base.variables, ...fixes.variables },
    light: { ...base.light, ...fixes.light },
    dark: { ...base.dark, ...fixes.dark },
  };
  const defaults = defaultCssVariablesResolver(DEFAULT_THEME);
  return convertCssVariables({
    variables: changedFrom(defaults.variables, ours.variables),
    light: changedFrom(defaults.light, ours.light),
    dark: changedFrom(defaults.dark, ours.dark),
  });
}
