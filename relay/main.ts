/**
 * `npm run relay` (or `node dist-relay/main.js`): the relay agent on a VPN server (docs/relay.md).
 *   npm run relay               the agent: keeps RELAY_INTERFACE equal to the API's peer list
 *   npm run relay -- setup      creates and configures the interface, forwarding, NAT and the resolver's addresses
 *   npm run relay -- resolver   the resolver on the tunnel gateway addresses (no query log)
 * A fatal problem (a refused token, a wrong URL, an interface with another key) is one line on stderr and exit 1.
 */
import { FatalAgentError, RelayAgent } from './agent.ts';
import { apiClient, FatalApiError } from './api-client.ts';
import { agentConfigFrom, ConfigError } from './config.ts';
import { jsonLinesLog } from './log.ts';
import { wgDriver } from './wg-driver.ts';

async function runAgent() {
  const config = agentConfigFrom(process.env);
  const agent = new RelayAgent(config, { api: apiClient(config.apiUrl, config.token), wg: wgDriver(config.wgCommand, config.interfaceName), log: jsonLinesLog() });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => agent.stop());
  await agent.run();
}

async function main() {
  const command = process.argv[2];
  if (command === 'setup') {
    const { runSetup } = await import('./setup.ts');
    await runSetup(process.env);
  } else if (command === 'resolver') {
    const { runResolverFromEnv } = await import('./resolver.ts');
    await runResolverFromEnv(process.env);
  } else if (command === undefined) {
    await runAgent();
  } else {
    throw new ConfigError(`unknown command "${command}" (none, setup or resolver)`);
  }
}

main().catch((error: unknown) => {
  const known = error instanceof FatalApiError || error instanceof FatalAgentError || error instanceof ConfigError;
  process.stderr.write(`relay agent: ${known ? (error as Error).message : String((error as Error)?.stack ?? error)}\n`);
  process.exit(1);
});
