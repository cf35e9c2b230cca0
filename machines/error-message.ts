/**
 * The text to show for a failure, shared by every machine. Its own module so that machines on the first
 * load (the session) do not carry the sign-in error catalogue with them.
 */

/** The message of an Error (or a plain string), else `fallback`. Empty messages count as missing. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message.trim() !== '') return error.message;
  if (typeof error === 'string' && error.trim() !== '') return error;
  return fallback;
}
