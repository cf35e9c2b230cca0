/**
 * The API's log as a person reads it in a terminal (issue 23): `npm start` and `npm run dev` print one
 * line per request ("12:00:01 POST /api/auth/verify 200 3 ms") instead of pino's two JSON lines, and
 * other entries as "time LEVEL message". Production runs server/main.ts directly and keeps JSON.
 * LOG_FORMAT=json under npm start prints the JSON as it is.
 */

const LEVELS = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

function clock(time) {
  return new Date(typeof time === 'number' ? time : Date.now()).toISOString().slice(11, 19);
}

/**
 * A formatter keeping what it needs between lines: the method and URL of each request in flight
 * (pino writes them on "incoming request", the status and time on "request completed").
 * Returns a function from one output line to the line to print, or null to print nothing.
 */
export function createLogFormatter() {
  const inFlight = new Map();
  return (line) => {
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      return line;
    }
    if (entry === null || typeof entry !== 'object' || typeof entry.msg !== 'string') return line;
    if (entry.msg === 'incoming request' && entry.req) {
      inFlight.set(entry.reqId, `${entry.req.method} ${entry.req.url}`);
      return null;
    }
    if (entry.msg === 'request completed' && entry.res) {
      const request = inFlight.get(entry.reqId) ?? '(request)';
      inFlight.delete(entry.reqId);
      const ms = typeof entry.responseTime === 'number' ? ` ${Math.round(entry.responseTime)} ms` : '';
      return `${clock(entry.time)} ${request} ${entry.res.statusCode}${ms}`;
    }
    const level = LEVELS[entry.level] ?? 'INFO';
    const error = entry.err?.message ? `: ${entry.err.message}` : '';
    return `${clock(entry.time)} ${level} ${entry.msg}${error}`;
  };
}
