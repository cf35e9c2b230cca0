import { describe, expect, test } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { ServerStatus, ServersStatusAnswer } from '../../contract/relay';
import { STATUS_REFRESH_MS } from '../../machines/server-status';
import { StatusPage } from '../../src/screens/status-page';
import { MantineRoot } from '../../src/theme/mantine-root';
import { SiteLinkProvider, anchorLinksAt } from '../../src/components/site-link';
import { renderWithMantine } from './render';

const updatedAt = '2026-11-28T10:00:00.000Z';
/** The API's figures may be older than their receipt: it answers 304 to unchanged figures, read from the cache. */
const received = Date.parse(updatedAt) + 60_000;
const now = received + 12_000;
const fullDays = Array.from({ length: 90 }, () => 1);

const server = (fields: Partial<ServerStatus> & Pick<ServerStatus, 'id' | 'city' | 'countryName'>): ServerStatus => ({
  country: 'US',
  online: true,
  maintenance: false,
  load: 0,
  lastReportAt: '2026-11-28T09:59:30.000Z',
  uptime30d: 100,
  uptime90d: 100,
  days: fullDays,
  ...fields,
});

const answer: ServersStatusAnswer = {
  updatedAt,
  servers: [
    server({ id: 'us-nyc-1', city: 'New York', countryName: 'United States', load: 37.4, uptime30d: 99.98, uptime90d: 99.956 }),
    server({
      id: 'ng-los-1',
      country: 'NG',
      city: 'Lagos',
      countryName: 'Nigeria',
      online: false,
      lastReportAt: '2026-11-28T09:55:00.000Z',
      uptime30d: 97.5,
      uptime90d: 99.1,
      days: [...Array.from({ length: 20 }, () => null), ...Array.from({ length: 69 }, () => 1), 0.25],
    }),
    server({ id: 'de-fra-1', country: 'DE', city: 'Frankfurt', countryName: 'Germany', maintenance: true, load: 12 }),
    server({ id: 'us-sfo-1', city: 'San Francisco', countryName: 'United States', online: false, lastReportAt: null, uptime30d: null, uptime90d: null, days: Array.from({ length: 90 }, () => null) }),
  ],
};

const card = (name: string) => screen.getByRole('heading', { name }).closest('li')!;

describe('/status (issue 48 item 2)', () => {
  test('each server: its place, its state in words, its load, its uptime beside the target', () => {
    renderWithMantine(<StatusPage status={answer} receivedAt={received} failed={false} now={now} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Server status' })).toBeInTheDocument();
    expect(screen.getByText('1 of 4 servers online, 1 in maintenance')).toBeInTheDocument();

    const newYork = within(card('New York, United States'));
    expect(newYork.getByText('Online')).toBeInTheDocument();
    expect(newYork.getByText('Load 37%')).toBeInTheDocument();
    expect(newYork.getByText('30 days: 99.98% · 90 days: 99.95% · target 99.9%')).toBeInTheDocument();
    expect(newYork.getByRole('img', { name: 'Uptime over 90 days: 99.95% (target 99.9%)' })).toBeInTheDocument();

    const lagos = within(card('Lagos, Nigeria'));
    expect(lagos.getByText('Offline')).toBeInTheDocument();
    expect(lagos.queryByText(/^Load/)).toBeNull();
    expect(lagos.getByText('Last report 6 minutes ago')).toBeInTheDocument();
    expect(lagos.getByRole('img', { name: 'Uptime over 90 days: 99.1% (target 99.9%); 20 days with no data' })).toBeInTheDocument();

    const frankfurt = within(card('Frankfurt, Germany'));
    expect(frankfurt.getByText('Maintenance')).toBeInTheDocument();
    expect(frankfurt.queryByText('Online')).toBeNull();

    const sanFrancisco = within(card('San Francisco, United States'));
    expect(sanFrancisco.getByText('Offline')).toBeInTheDocument();
    expect(sanFrancisco.getByText('No report yet')).toBeInTheDocument();
    expect(sanFrancisco.getByText('30 days: no data yet · 90 days: no data yet · target 99.9%')).toBeInTheDocument();
    expect(sanFrancisco.getByRole('img', { name: 'Uptime over 90 days: no data yet (target 99.9%)' })).toBeInTheDocument();
  });

  test('the strip: 90 days, oldest first, a day with no record titled "no data"', () => {
    renderWithMantine(<StatusPage status={answer} receivedAt={received} failed={false} now={now} />);
    const bars = within(card('Lagos, Nigeria')).getByRole('img').querySelectorAll('span');
    expect(bars).toHaveLength(90);
    expect(bars[0]).toHaveAttribute('title', 'Aug 31: no data');
    expect(bars[20]).toHaveAttribute('title', 'Sep 20: 100% up');
    expect(bars[89]).toHaveAttribute('title', 'Nov 28: 25% up');
  });

  test("each day's label is en-US's short date of that UTC day, written without Intl", () => {
    const longAgo = { ...answer, updatedAt: '2026-03-02T00:30:00.000Z', servers: answer.servers.slice(0, 1) };
    renderWithMantine(<StatusPage status={longAgo} receivedAt={received} failed={false} now={now} />);
    const bars = [...screen.getByRole('img').querySelectorAll('span')];
    const intl = (daysBefore: number) =>
      new Date(Date.parse(longAgo.updatedAt) - daysBefore * 86_400_000).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
    // Back over February's end and into December of the year before.
    expect(bars.map((bar) => bar.getAttribute('title')!.split(':')[0])).toEqual(bars.map((_, index) => intl(bars.length - 1 - index)));
    expect(bars[0]).toHaveAttribute('title', 'Dec 3: 100% up');
  });

  test('"Updated N seconds ago", counted from the answer\'s receipt', () => {
    const { rerender } = renderWithMantine(<StatusPage status={answer} receivedAt={received} failed={false} now={now} />);
    expect(screen.getByText('Updated 12 seconds ago')).toBeInTheDocument();
    rerender(
      <MantineRoot>
        <SiteLinkProvider value={anchorLinksAt('/')}>
          <StatusPage status={answer} receivedAt={received} failed={false} now={received + 1_000} />
        </SiteLinkProvider>
      </MantineRoot>,
    );
    expect(screen.getByText('Updated 1 second ago')).toBeInTheDocument();
  });

  test('before the first answer: it says it is loading', () => {
    renderWithMantine(<StatusPage status={null} receivedAt={null} failed={false} now={now} />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading the server status…');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  test('a failed fetch: says so and retrying, keeping the last figures with their age', () => {
    renderWithMantine(<StatusPage status={answer} receivedAt={received} failed now={received + 130_000} />);
    expect(screen.getByRole('alert')).toHaveTextContent("We can't load the server status right now. Retrying… The figures below are the last we received.");
    expect(screen.getByText('Updated 2 minutes ago')).toBeInTheDocument();
    expect(within(card('New York, United States')).getByText('Load 37%')).toBeInTheDocument();
  });

  test('every server online: said in one line', () => {
    renderWithMantine(<StatusPage status={{ ...answer, servers: answer.servers.slice(0, 1) }} receivedAt={received} failed={false} now={now} />);
    expect(screen.getByText('All servers online')).toBeInTheDocument();
  });

  test('a failed first fetch: the message alone', () => {
    renderWithMantine(<StatusPage status={null} receivedAt={null} failed now={now} />);
    expect(screen.getByRole('alert')).toHaveTextContent("We can't load the server status right now. Retrying…");
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByRole('listitem')).toBeNull();
  });

  test('the page says how often it refreshes, as the machine does', () => {
    renderWithMantine(<StatusPage status={null} receivedAt={null} failed={false} now={now} />);
    expect(screen.getByText(new RegExp(`refreshes itself every ${STATUS_REFRESH_MS / 1000} seconds`))).toBeInTheDocument();
  });
});
