import { useSyncExternalStore } from 'react';
import { session } from './session';

/** The signed-in user, re-rendering on login, refresh and logout. */
export function useSession() {
  return useSyncExternalStore(session.subscribe, session.current);
}
