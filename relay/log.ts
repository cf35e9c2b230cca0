/**
 * The agent's log: one JSON object a line on stdout, with an event name and numbers only (versions, counts,
 * durations). Nothing about a key, an address, an endpoint or a byte count is ever passed to it: the
 * signature allows numbers, booleans and short fixed words, nothing else.
 */
type LogFields = Record<string, number | boolean | null>;
export type Log = (event: string, fields?: LogFields) => void;

export function jsonLinesLog(write: (line: string) => void = (line) => process.stdout.write(line)): Log {
  return (event, fields = {}) => write(`${JSON.stringify({ time: new Date().toISOString(), event, ...fields })}\n`);
}
