/**
 * The catalogue reloads without a restart (issue 48, item 4): on SIGHUP and when the file VPN_SERVERS names
 * changes (a watch on its folder, so an editor's replace-by-rename is seen too; changes within DEBOUNCE_MS
 * are read once). A file that is not a valid catalogue (or, in production, lists a server without a relay
 * token) keeps the catalogue in use and says why in one log line. Routes read `config.vpnServers` at each
 * call, so the next answer shows the new one.
 */
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { loadVpnCatalogue, type VpnCatalogue } from './catalogue.ts';

/** The part of the configuration a reload reads and replaces (the composition hands in its Config). */
interface CatalogueHolder {
  vpnServers: VpnCatalogue;
  production: boolean;
  relayTokens: Map<string, string>;
}

const DEBOUNCE_MS = 200;

export interface CatalogueReload {
  /** Reads the file again: true when the new catalogue is in use. */
  reload: () => boolean;
  close: () => void;
}

export function watchCatalogue(config: CatalogueHolder, path: string, log: FastifyBaseLogger): CatalogueReload {
  const reload = (): boolean => {
    try {
      const next = loadVpnCatalogue(path);
      const untokened = config.production ? next.servers.find((server) => !config.relayTokens.has(server.id)) : undefined;
      if (untokened) throw new Error(`server "${untokened.id}" has no relay token in RELAY_TOKENS`);
      config.vpnServers = next;
      log.info(`VPN_SERVERS reloaded: ${next.servers.length} servers, ${next.servers.filter((server) => server.maintenance).length} in maintenance`);
      return true;
    } catch (error) {
      log.warn(`VPN_SERVERS reload refused, the catalogue in use is kept: ${(error as Error).message.replace(/\s+/g, ' ')}`);
      return false;
    }
  };

  let timer: NodeJS.Timeout | undefined;
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(reload, DEBOUNCE_MS);
  };
  const name = basename(path);
  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(dirname(path), (_event, changed) => {
      if (changed === null || changed.toString() === name) soon();
    });
    watcher.on('error', (error) => log.warn(`VPN_SERVERS: the file watch stopped (${error.message}); SIGHUP still reloads`));
  } catch (error) {
    log.warn(`VPN_SERVERS: cannot watch ${dirname(path)} (${(error as Error).message}); SIGHUP reloads`);
  }
  const onHangUp = () => {
    reload();
  };
  process.on('SIGHUP', onHangUp);

  return {
    reload,
    close: () => {
      clearTimeout(timer);
      watcher?.close();
      process.off('SIGHUP', onHangUp);
    },
  };
}
