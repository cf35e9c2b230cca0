/**
 * What the pooled e2e stacks run with beside the suite's Auth emulator (tests/support/stack-pool.ts): the
 * settings every file leasing one can share. A file asking useWholeStack for these gets a pooled stack; a
 * file asking for anything else starts its own (tests/support/e2e-suite.ts).
 */
export const POOLED_STACK_ENV: Readonly<Record<string, string>> = {
  // The relay API on, for the files that read the peer list (wireguard-device); nobody else calls it.
  RELAY_TOKENS: 'e2e-relay:relay-token-for-the-journey-0123456789abcdef',
};
