import { createContext, useContext } from 'react';
import type { AppActors } from './app-actors';

export const AppActorsContext = createContext<AppActors | null>(null);

/** The app's long-lived actors (session, sign-in), for screens that send them events. */
export function useAppActors(): AppActors {
  const actors = useContext(AppActorsContext);
  if (!actors) throw new Error('useAppActors outside <AppActorsContext.Provider>');
  return actors;
}
