/** The shield logo; decorative, since the product name always stands beside it. */
export function BrandMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="var(--mantine-color-veil-7)" />
      <path d="M32 12 48 18v13c0 10-7 18-16 21-9-3-16-11-16-21V18z" fill="#fff" />
      <path
        d="M26 32l5 5 9-10"
        stroke="var(--mantine-color-veil-7)"
        strokeWidth="4"
        fill="none"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
