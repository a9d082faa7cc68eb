import { Alert, Loader } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Loaded } from '../api/useLoad';

/**
 * The API's message when it refused (nothing of an older answer: it would pass for this one's), a
 * loader while nothing came yet; else the content. `compact`: inside a section, a smaller loader.
 */
export function Loading<T>({ loaded, what, compact, children }: { loaded: Loaded<T>; what: string; compact?: boolean; children: (data: T) => ReactNode }) {
  if (loaded.error) return <Alert color="red" title={`Cannot load ${what}`}>{loaded.error.message}</Alert>;
  if (loaded.data === undefined) return <Loader size={compact ? 'sm' : undefined} aria-label={`Loading ${what}`} />;
  return <>{children(loaded.data)}</>;
}
