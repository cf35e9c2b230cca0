import { memo } from 'react';
import { Alert, Card, Group, Stack, Text, Title, type TitleOrder } from '@mantine/core';
import type { ServerStatus, ServersStatusAnswer } from '../../contract/relay';
import classes from './server-status-board.module.css';

/** The uptime every server is held to (the terms' "99.9% uptime target"). */
const UPTIME_TARGET = 99.9;
/** A day at or above this share up is drawn as up; below DOWN_BELOW, as down; between, as partial. */
const DAY_UP = 0.999;
const DOWN_BELOW = 0.5;

export interface ServerStatusBoardProps {
  /** The last answer of GET /api/vpn/servers/status, or null before the first. */
  status: ServersStatusAnswer | null;
  /** When the page received it (ms since the epoch): "Updated N seconds ago" counts from it. */
  receivedAt: number | null;
  /** The last fetch failed: the last answer, if any, stays shown with its age. */
  failed: boolean;
  /** The time now (ms since the epoch). */
  now: number;
  /** The level of each server's heading (2 on /status, deeper inside the staff console). */
  headingOrder?: TitleOrder;
}

/** What the staff console adds to a server (POST /api/staff/servers, issue 47 item 2): the peer list it applied. */
interface AppliedVersion {
  /** The highest peer-list version the server confirmed applied; 0 before any. */
  confirmedVersion: number;
  /** The peer list's current version. */
  listVersion: number;
  agentVersion: string | null;
}

function appliedOf(server: ServerStatus): AppliedVersion | null {
  return 'confirmedVersion' in server && 'listVersion' in server ? (server as ServerStatus & AppliedVersion) : null;
}

type State = 'Online' | 'Offline' | 'Maintenance';

/** A server taken out of service on purpose says so, whether or not it still reports. */
function stateOf(server: ServerStatus): State {
  if (server.maintenance) return 'Maintenance';
  return server.online ? 'Online' : 'Offline';
}

const STATE_CLASS: Record<State, string | undefined> = {
  Online: classes.online,
  Offline: classes.offline,
  Maintenance: classes.maintenance,
};

/** A percentage cut (never rounded up) to two decimals: 99.899 is "99.89%", below the target, as it is. */
function percent(value: number): string {
  return `${Math.floor(value * 100) / 100}%`;
}

const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'}`;

/** "5 seconds", "3 minutes", "2 hours", "4 days": how long ago a moment was, in its largest whole unit. */
function ageText(from: string | number, now: number): string {
  const seconds = Math.max(0, Math.floor((now - (typeof from === 'number' ? from : Date.parse(from))) / 1000));
  if (seconds < 60) return plural(seconds, 'second');
  if (seconds < 3600) return plural(Math.floor(seconds / 60), 'minute');
  if (seconds < 86_400) return plural(Math.floor(seconds / 3600), 'hour');
  return plural(Math.floor(seconds / 86_400), 'day');
}

function dayClass(share: number | null): string | undefined {
  if (share === null) return classes.noData;
  if (share >= DAY_UP) return classes.up;
  return share < DOWN_BELOW ? classes.down : classes.partial;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * "Nov 28" for the day `daysBefore` days before the answer's day (UTC, as the API tallies days), as
 * en-US's short date writes it. Without Intl: toLocaleDateString with options was called 90 times per
 * server, the first call loading the browser's locale data (180 days took 27 ms in Node here, 0.05 ms
 * without Intl; a phone is about four times slower: src/screens/subscription-texts.ts), inside the task that
 * draws /status's first figures.
 */
function dayLabel(updatedAt: string, daysBefore: number): string {
  const day = new Date(Date.parse(updatedAt) - daysBefore * 86_400_000);
  return `${MONTHS[day.getUTCMonth()]} ${day.getUTCDate()}`;
}

/** The strip's text alternative: the measured figure beside the target, and how many days have no record. */
function stripLabel(server: ServerStatus): string {
  const measured = server.uptime90d === null ? 'no data yet' : percent(server.uptime90d);
  const missing = server.days.filter((day) => day === null).length;
  const noData = missing > 0 && missing < server.days.length ? `; ${plural(missing, 'day')} with no data` : '';
  return `Uptime over 90 days: ${measured} (target ${UPTIME_TARGET}%)${noData}`;
}

// Memoised: the board re-renders every second for its ages, and a strip's 90 bars change only with a new answer.
const UptimeStrip = memo(function UptimeStrip({ server, updatedAt }: { server: ServerStatus; updatedAt: string }) {
  const last = server.days.length - 1;
  return (
    <div role="img" aria-label={stripLabel(server)} className={classes.strip}>
      {server.days.map((share, index) => (
        <span
          // The days are a fixed window, oldest first: a position is a day.
          // oxlint-disable-next-line react/no-array-index-key
          key={index}
          className={`${classes.bar} ${dayClass(share)}`}
          title={`${dayLabel(updatedAt, last - index)}: ${share === null ? 'no data' : `${percent(share * 100)} up`}`}
        />
      ))}
    </div>
  );
});

/** What an offline or maintenance card says of the last report: the one text of a card that changes with the clock. */
function lastReportText(server: ServerStatus, now: number): string {
  return server.lastReportAt ? `Last report ${ageText(server.lastReportAt, now)} ago` : 'No report yet';
}

// Memoised: the board re-renders every second for its ages, and a card changes only with a new answer or its
// own age's text (`lastReport`, empty for an online server), so most seconds redraw no card.
const ServerCard = memo(function ServerCard({
  server,
  updatedAt,
  lastReport,
  headingOrder,
}: {
  server: ServerStatus;
  updatedAt: string;
  lastReport: string;
  headingOrder: TitleOrder;
}) {
  const state = stateOf(server);
  const applied = appliedOf(server);
  return (
    <Card component="li" withBorder radius="md" padding="md">
      <Title order={headingOrder} size="h4">
        {server.city}, {server.countryName}
      </Title>
      <Group gap="xs" mt={4}>
        <Group gap={6} wrap="nowrap">
          <span className={`${classes.dot} ${STATE_CLASS[state]}`} aria-hidden="true" />
          <Text fw={700} size="sm">
            {state}
          </Text>
        </Group>
        <Text size="sm" c="dimmed" aria-hidden="true">
          ·
        </Text>
        {state === 'Online' ? (
          <Text size="sm">Load {Math.round(server.load)}%</Text>
        ) : (
          <Text size="sm">{lastReport}</Text>
        )}
      </Group>
      <UptimeStrip server={server} updatedAt={updatedAt} />
      <Group justify="space-between" gap="xs" mt={4}>
        <Text size="xs" c="dimmed">
          90 days ago
        </Text>
        <Text size="xs" c="dimmed">
          Today
        </Text>
      </Group>
      <Text size="sm" mt={4}>
        30 days: {server.uptime30d === null ? 'no data yet' : percent(server.uptime30d)} · 90 days:{' '}
        {server.uptime90d === null ? 'no data yet' : percent(server.uptime90d)} · target {UPTIME_TARGET}%
      </Text>
      {applied ? (
        <Text size="sm" mt={4}>
          Peer list: version {applied.confirmedVersion} of {applied.listVersion} applied
          {applied.confirmedVersion < applied.listVersion ? ` (${applied.listVersion - applied.confirmedVersion} behind)` : ''}
          {applied.agentVersion ? ` · agent ${applied.agentVersion}` : ''}
        </Text>
      ) : null}
    </Card>
  );
});

function summary(servers: ServerStatus[]): string {
  const online = servers.filter((server) => stateOf(server) === 'Online').length;
  const maintenance = servers.filter((server) => stateOf(server) === 'Maintenance').length;
  const head = online === servers.length ? 'All servers online' : `${online} of ${plural(servers.length, 'server')} online`;
  return maintenance > 0 ? `${head}, ${maintenance} in maintenance` : head;
}

/**
 * Every VPN server's state in words (Online, Offline, Maintenance; the dot beside it is decoration), its load,
 * its 90-day uptime strip with the measured 30- and 90-day figures beside the target, and the answer's age.
 * Drawn by /status and by the staff console (props only: the server-status machine's context and a clock).
 */
export function ServerStatusBoard({ status, receivedAt, failed, now, headingOrder = 2 }: ServerStatusBoardProps) {
  return (
    <Stack gap="md">
      {failed && (
        <Alert color="yellow" title="Status unavailable" className={classes.notice}>
          {/* Fixed words: an alert is read out when it changes, so the ticking age stays out of it. */}
          We can't load the server status right now. Retrying…
          {status && ' The figures below are the last we received.'}
        </Alert>
      )}
      {status === null ? (
        !failed && (
          <Text role="status" c="dimmed">
            Loading the server status…
          </Text>
        )
      ) : (
        <>
          <Group justify="space-between" gap="xs">
            <Text fw={600}>{summary(status.servers)}</Text>
            <Text size="sm" c="dimmed">
              Updated {ageText(receivedAt ?? status.updatedAt, now)} ago
            </Text>
          </Group>
          <ul className={classes.list}>
            {status.servers.map((server) => (
              <ServerCard
                key={server.id}
                server={server}
                updatedAt={status.updatedAt}
                lastReport={stateOf(server) === 'Online' ? '' : lastReportText(server, now)}
                headingOrder={headingOrder}
              />
            ))}
          </ul>
        </>
      )}
    </Stack>
  );
}
