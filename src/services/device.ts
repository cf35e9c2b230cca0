/** Spec §1: a desktop is a Mac, Windows or Linux user agent that is not a mobile one. */
export function isDesktopUserAgent(userAgent: string, maxTouchPoints = 0): boolean {
  const mobile = /Android|iPhone|iPad|iPod|Mobile|webOS|BlackBerry|IEMobile|Opera Mini/i.test(userAgent);
  const desktopOs = /Macintosh|Mac OS X|Windows NT|Linux|X11|CrOS/i.test(userAgent);
  // iPadOS Safari reports a Mac user agent. No Mac has a touch screen; an iPad reports 5 touch points
  // (issue 11 item 8), so a veilvpn:// link is never fired at a tablet without the app.
  const iPadAsMac = /Macintosh/i.test(userAgent) && maxTouchPoints > 1;
  return desktopOs && !mobile && !iPadAsMac;
}

export function isDesktop(): boolean {
  return typeof navigator !== 'undefined' && isDesktopUserAgent(navigator.userAgent, navigator.maxTouchPoints ?? 0);
}
