import type { AppDeps } from './deps';
import { accountRoutes } from './accounts/routes';
import { analysisRoutes } from './analysis/routes';
import { analyticsRoutes } from './analytics/routes';
import { automationRoutes } from './automations/routes';
import { recordRoutes } from './automations/records-routes';
import { activityRoutes } from './activities/routes';
import { accountingPeriodRoutes } from './accounting-periods/routes';
import { contactPaymentRoutes } from './contact-payment-methods/routes';
import { planRoutes } from './communication-plans/routes';
import { templateRoutes } from './communication-templates/routes';
import { limitRoutes } from './communication-limits/routes';
import { communicationRoutes } from './communications/routes';
import { contactRoutes } from './contacts/routes';
import { customFieldRoutes } from './custom-fields/routes';
import { integrationRoutes } from './integrations/routes';
import { segmentRoutes } from './segments/routes';
import { assignmentRoutes } from './assignments/routes';
import { userRoutes } from './assignments/user-routes';
import { loyaltyReferenceRoutes } from './loyalty-reference/routes';
import { purchaseRoutes } from './purchases/routes';
import { rewardRoutes } from './rewards/routes';
import { voucherRoutes } from './vouchers/routes';
import { healthRoutes } from './health/routes';
import { identityRoutes } from './identity/routes';
import { networkRoutes } from './network/routes';
import { productRoutes } from './products/routes';
import { referenceRoutes } from './reference/routes';
import { reportRoutes } from './reports/routes';
import type { RouteDef } from './route';
import { settingsRoutes } from './settings/routes';
import { spendConditionRoutes } from './spend-conditions/routes';
import { walletRoutes } from './wallets/routes';
import { webhookRoutes } from './webhooks/routes';
import { accountLifeCycleRoute } from './termination';

/** Every operation of the API, in documentation order. The OpenAPI document is built from it. */
export function allRoutes(deps: AppDeps & { onKeyRevoked: () => void }): RouteDef[] {
  return [
    ...healthRoutes(deps),
    ...identityRoutes(deps),
    ...referenceRoutes(),
    ...contactRoutes(deps),
    ...contactPaymentRoutes(),
    ...analysisRoutes(),
    ...settingsRoutes(),
    ...networkRoutes(),
    ...productRoutes(),
    ...spendConditionRoutes(),
    ...accountingPeriodRoutes(),
    ...accountRoutes(),
    ...walletRoutes(deps),
    accountLifeCycleRoute(deps),
    ...loyaltyReferenceRoutes(),
    ...rewardRoutes(),
    ...voucherRoutes(),
    ...purchaseRoutes(deps),
    ...integrationRoutes(),
    ...segmentRoutes(),
    ...assignmentRoutes(),
    ...userRoutes(deps),
    ...customFieldRoutes(),
    ...planRoutes(deps),
    ...templateRoutes(),
    ...communicationRoutes(deps),
    ...limitRoutes(),
    ...webhookRoutes(deps),
    ...automationRoutes(),
    ...recordRoutes(deps),
    ...activityRoutes(),
    ...reportRoutes(deps),
    ...analyticsRoutes(),
  ];
}
