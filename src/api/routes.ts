import type { AppDeps } from './deps';
import { accountRoutes } from './accounts/routes';
import { analysisRoutes } from './analysis/routes';
import { analyticsRoutes } from './analytics/routes';
import { automationRoutes } from './automations/routes';
import { recordRoutes } from './automations/records-routes';
import { activityRoutes } from './activities/routes';
import { accountingPeriodRoutes } from './money/accounting-periods/routes';
import { contactPaymentRoutes } from './contacts/payment-methods/routes';
import { planRoutes } from './communications/plans/routes';
import { templateRoutes } from './communications/templates/routes';
import { limitRoutes } from './communications/limits/routes';
import { communicationRoutes } from './communications/routes';
import { contactRoutes } from './contacts/routes';
import { customFieldRoutes } from './custom-fields/routes';
import { integrationRoutes } from './communications/integrations/routes';
import { segmentRoutes } from './communications/segments/routes';
import { assignmentRoutes } from './assignments/routes';
import { userRoutes } from './users/routes';
import { loyaltyReferenceRoutes } from './loyalty/reference/routes';
import { purchaseRoutes } from './loyalty/purchases/routes';
import { rewardRoutes } from './loyalty/rewards/routes';
import { voucherRoutes } from './loyalty/vouchers/routes';
import { healthRoutes } from './health/routes';
import { identityRoutes } from './identity/routes';
import { creativeRoutes } from './network/creatives/routes';
import { networkRoutes } from './network/routes';
import { productRoutes } from './products/routes';
import { referenceRoutes } from './reference/routes';
import { reportRoutes } from './reports/routes';
import type { RouteDef } from './route';
import { settingsRoutes } from './money/settings/routes';
import { spendConditionRoutes } from './spend-conditions/routes';
import { walletRoutes } from './wallets/routes';
import { webhookRoutes } from './webhooks/routes';
import { accountLifeCycleRoute } from './accounts/termination';

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
    ...creativeRoutes(),
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
