export const ROOM_NEEDED_BYTES: number;
export const TMPFS_MAGIC: number;

export function temporaryFolderInMemory(
  env?: NodeJS.ProcessEnv,
  base?: string,
): { folder: string; remove: () => void; reason?: undefined } | { folder: null; reason: string; remove?: undefined };
