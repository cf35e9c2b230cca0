import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/**
 * One theme for the whole site. The brand colour is a deep violet; its darker shades (7+) keep white text
 * above WCAG AA contrast, so buttons use shade 7 in light mode and 8 in dark mode.
 */
const veil: MantineColorsTuple = [
  '#f3f0ff',
  '#e4ddfb',
  '#c6b8f2',
  '#a690ea',
  '#8b6ee3',
  '#7a58df',
  '#714ddd',
  '#5f3ec4',
  '#5436b0',
  '#472d9b',
];

export const theme = createTheme({
  primaryColor: 'veil',
  primaryShade: { light: 7, dark: 8 },
  colors: { veil },
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '750' },
  defaultRadius: 'md',
  autoContrast: true,
  components: {
    // Light alerts draw their title in the alert colour, which for yellow is 2.7:1 on its own background.
    // (A plain object, not Alert.extend: that would pull the Alert component into every first load.)
    Alert: { styles: { title: { color: 'var(--mantine-color-text)' } } },
    // A toast may name an e-mail address or a device: break long words rather than cut them off. Its message
    // is drawn in gray 6 (3.3:1 on white) and dark 2 in dark mode: use the corrected dimmed instead.
    // Bold text in a heading's colour, as in light mode (issue 45 note 24): in dark mode the body's grey made
    // the values a card leads with (the address, the plan) lighter than their labels' weight says.
    Text: {
      styles: (_theme: unknown, props: { fw?: unknown; c?: unknown }) =>
        Number(props.fw) >= 600 && props.c === undefined ? { root: { color: 'var(--veil-color-emphasis)' } } : {},
    },
    Notification: {
      styles: {
        title: { overflowWrap: 'anywhere' },
        description: { overflowWrap: 'anywhere', color: 'var(--mantine-color-dimmed)' },
      },
    },
  },
});

/**
 * Contrast fixes on top of Mantine's defaults (axe-core, WCAG AA 4.5:1): its light "dimmed" grey is
 * 3.3:1 on white, its dark one about 4:1 on the dark body, and so is its dark-mode link colour.
 * Its dark "light" variant (Contact Support) is a violet darker than the card, which reads as disabled: a
 * translucent veil-6 lifts it off the card as the pale violet does on white.
 */
export const cssVariablesResolver: CSSVariablesResolver = (resolved) => ({
  variables: {},
  light: { '--mantine-color-dimmed': resolved.colors.gray[7]!, '--veil-color-emphasis': 'var(--mantine-color-text)' },
  dark: {
    // Headings and bold text (components/plain.module.css, Text below): white, as they are black in light mode.
    '--veil-color-emphasis': 'var(--mantine-color-white)',
    '--mantine-color-anchor': veil[3],
    '--mantine-color-dimmed': resolved.colors.dark[1]!,
    '--mantine-color-veil-light': 'rgba(113, 77, 221, 0.4)',
    '--mantine-color-veil-light-hover': 'rgba(113, 77, 221, 0.5)',
  },
});
