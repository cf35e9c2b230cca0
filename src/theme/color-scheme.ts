/**
 * Light or dark, following the system setting, before any Mantine code has loaded. Mantine's CSS reads
 * the colour scheme from `data-mantine-color-scheme` on <html>; MantineProvider's "auto" sets it the
 * same way when a Mantine island mounts (src/theme/mantine-root.tsx), and never removes it.
 */
const DARK_QUERY = '(prefers-color-scheme: dark)';

export function followSystemColorScheme(
  root: HTMLElement = document.documentElement,
  media: MediaQueryList = window.matchMedia(DARK_QUERY),
): () => void {
  const apply = () => root.setAttribute('data-mantine-color-scheme', media.matches ? 'dark' : 'light');
  apply();
  media.addEventListener('change', apply);
  return () => media.removeEventListener('change', apply);
}
