// The app's root: a browser-only single-page app (no server rendering). Loads what every page
// reads from `page.data` (the UI server's settings, cluster and system info) and the namespaces.
import i18next from 'i18next';
import { i18nNamespaces } from '@temporalio/ui/i18n/index';
import resources from '@temporalio/ui/i18n/locales/index';
import { fetchCluster, fetchSystemInfo } from '@temporalio/ui/services/cluster-service';
import { fetchNamespaces } from '@temporalio/ui/services/namespaces-service';
import { fetchSettings } from '@temporalio/ui/services/settings-service';

import '../app.css';

export const ssr = false;
export const prerender = false;

// The library ships English only; with the resources at hand, init is synchronous.
i18next.init({ lng: 'en', fallbackLng: 'en', ns: i18nNamespaces, defaultNS: 'common', resources, initImmediate: false });

export async function load({ fetch }) {
  const settings = await fetchSettings(fetch);
  fetchNamespaces(settings, fetch);
  const [cluster, systemInfo] = await Promise.all([fetchCluster(settings, fetch), fetchSystemInfo(settings, fetch)]);
  return { settings, cluster, systemInfo };
}
