import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSession } from './useSession';

/** Without a session (a fresh tab, a reload, a logout) every page goes to the login, which comes back here. */
export function RequireSession({ children }: { children: ReactNode }) {
  const current = useSession();
  const location = useLocation();
  if (!current) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  return children;
}
