/** Spec §1: a desktop is a Mac, Windows or Linux user agent that is not a mobile one. */
export function isDesktopUserAgent(userAgent: string): boolean {
  const mobile = /Android|iPhone|iPad|iPod|Mobile|webOS|BlackBerry|IEMobile|Opera Mini/i.test(userAgent);
  const desktopOs = /Macintosh|Mac OS X|Windows NT|Linux|X11|CrOS/i.test(userAgent);
  return desktopOs && !mobile;
}

export function isDesktop(): boolean {
  return typeof navigator !== 'undefined' && isDesktopUserAgent(navigator.userAgent);
}
