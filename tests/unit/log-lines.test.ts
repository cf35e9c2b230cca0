/**
 * Issue 23, item 8: `npm start` prints one human line per request, and other log entries as
 * "time LEVEL message"; lines that are not JSON pass through.
 */
import { expect, test } from 'vitest';
import { createLogFormatter } from '../../scripts/lib/log-lines.mjs';

test('one line per request, other entries readable, anything else as it is', () => {
  const format = createLogFormatter();
  const time = Date.UTC(2026, 10, 25, 12, 0, 1);
  const lines = [
    { level: 30, time, reqId: 'req-1', req: { method: 'POST', url: '/api/auth/verify' }, msg: 'incoming request' },
    { level: 30, time, reqId: 'req-1', res: { statusCode: 200 }, responseTime: 3.4, msg: 'request completed' },
    { level: 40, time, msg: 'Redis unavailable', err: { message: 'connect ECONNREFUSED' } },
  ].map((entry) => format(JSON.stringify(entry)));
  expect(lines).toEqual([null, '12:00:01 POST /api/auth/verify 200 3 ms', '12:00:01 WARN Redis unavailable: connect ECONNREFUSED']);
  expect(format('Server starting')).toBe('Server starting');
});
