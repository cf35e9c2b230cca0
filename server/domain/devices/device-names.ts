/**
 * What a desktop session is called when its app gave no name: one name for the device list, the staff
 * console, its WireGuard key, the activity entry and the new-device e-mail, so they never disagree.
 */
const UNNAMED_DESKTOP = 'Desktop app';

/** The session's own name, or the name every screen and message uses for one without. */
export function desktopName(deviceName: string | null | undefined): string {
  return deviceName ?? UNNAMED_DESKTOP;
}
