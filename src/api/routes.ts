import type { AppDeps } from './app';
import { contactPaymentRoutes } from './contact-payment-methods/routes';
import { contactRoutes } from './contacts/routes';
import { healthRoutes } from './health/routes';
import { identityRoutes } from './identity/routes';
import { referenceRoutes } from './reference/routes';
import type { RouteDef } from './route';

/** Every operation of the API, in documentation order. The OpenAPI document is built from it. */
export function allRoutes(deps: AppDeps & { onKeyRevoked: () => void }): RouteDef[] {
  return [...healthRoutes(deps), ...identityRoutes(deps), ...referenceRoutes(), ...contactRoutes(deps), ...contactPaymentRoutes()];
}
