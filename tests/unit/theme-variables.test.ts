/**
 * The shell draws with the theme's CSS variables before any Mantine code loads, so they are computed at
 * build time (src/theme/theme-variables.ts). They must be exactly what MantineProvider writes at run time.
 */
import { describe, expect, test } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MantineProvider } from '@mantine/core';
import { themeVariablesCss } from '../../src/theme/theme-variables';
import { cssVariablesResolver, theme } from '../../src/theme/theme';

function providerCss(): string {
  const html = renderToStaticMarkup(createElement(MantineProvider, { theme, cssVariablesResolver }, 'page'));
  const style = /<style data-mantine-styles="true"[^>]*>([\s\S]*?)<\/style>/.exec(html);
  if (!style) throw new Error(`MantineProvider wrote no CSS variables:\n${html}`);
  return style[1]!;
}

describe('theme variables', () => {
  test('are what MantineProvider writes for our theme at run time', () => {
    expect(themeVariablesCss()).toBe(providerCss());
  });

  test('carry the brand colour, the primary shades and the contrast fixes in both schemes', () => {
    const css = themeVariablesCss();
    expect(css).toContain('--mantine-color-veil-7: #5f3ec4;');
    expect(css).toMatch(/\[data-mantine-color-scheme="light"\][^{]*\{[^}]*--mantine-color-veil-filled: var\(--mantine-color-veil-7\);/);
    expect(css).toMatch(/\[data-mantine-color-scheme="dark"\][^{]*\{[^}]*--mantine-color-veil-filled: var\(--mantine-color-veil-8\);/);
    expect(css).toMatch(/\[data-mantine-color-scheme="light"\][^{]*\{[^}]*--mantine-color-dimmed: #495057;/);
  });
});
