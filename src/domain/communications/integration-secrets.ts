// An integration's secrets as stored (docs/security.md "Secrets at rest"): inside `settings`, the
// SMTP password and the HTTP provider's auth password and token are sealed one by one, the rest
// stays as written (reads show password_set and token_set from it). Opened only to send, and by
// an update that keeps them.
import type { Integration } from '../../db/client';
import { openSecret, sealSecret } from '../../secret-box';

/** Where secrets live inside settings. */
export const SETTINGS_SECRET_PATHS = [['password'], ['auth', 'password'], ['auth', 'token']] as const;
type Path = (typeof SETTINGS_SECRET_PATHS)[number];
type Loose = Record<string, unknown>;

export const integrationPlace = (path: readonly string[], id: string) => `integrations.settings.${path.join('.')}:${id}`;

/** A copy of the settings with each secret passed through `fn`; anything else is left alone. */
export function mapSettingsSecrets<T>(settings: T, fn: (value: string, path: Path) => string): T {
  if (!isObject(settings)) return settings;
  const out = structuredClone(settings) as Loose;
  for (const path of SETTINGS_SECRET_PATHS) {
    const parent = path.length === 1 ? out : out[path[0]];
    const name = path[path.length - 1];
    if (isObject(parent) && typeof parent[name] === 'string') parent[name] = fn(parent[name] as string, path);
  }
  return out as T;
}

export const sealSettings = <T>(id: string, settings: T): T => mapSettingsSecrets(settings, (v, path) => sealSecret(v, integrationPlace(path, id)));
export const openSettings = <T>(id: string, settings: T): T => mapSettingsSecrets(settings, (v, path) => openSecret(v, integrationPlace(path, id)));

/** The provider's settings with their secrets opened, for the send that uses them. */
export function settingsToSend<T>(integration: Pick<Integration, 'id' | 'settings'>): T {
  return openSettings(integration.id, integration.settings) as unknown as T;
}

function isObject(v: unknown): v is Loose {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The integration with its settings' secrets opened. */
export const withOpenSettings = <T extends Pick<Integration, 'id' | 'settings'>>(integration: T): T => ({ ...integration, settings: openSettings(integration.id, integration.settings) });
