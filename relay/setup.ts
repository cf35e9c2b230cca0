/** `npm run relay -- setup` (docs/relay.md): written in the next step. */
export async function runSetup(_env: NodeJS.ProcessEnv): Promise<void> {
  throw new Error('setup is not written yet');
}
