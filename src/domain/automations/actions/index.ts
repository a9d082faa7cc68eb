// Every automation action, once, in catalogue order: ADAPTOR_ACTION_CODES follow it, and so do an
// adaptor's actions in GET /adaptors. A new action is a declaration (./define.ts) added here.
import { addToSegment } from './add-to-segment';
import { requestApproval } from './approval';
import {
  assignSpecificDepartment, assignSpecificUser, assignUserOfSpecificDepartment, assignUserOfSpecificUserRole, fulfilledByNearestLocation,
  fulfilledByPostCodeCoverage, fulfilledBySpecificOrganisation, fulfilledBySpecificUser, fulfilledByUserOfSpecificUserRole,
} from './assign';
import { communicateCustomer, communicateUser } from './communicate';
import type { ActionDeclaration } from './define';
import { updateContent } from './update-content';
import { postWebhook, provisionOrderToPosSystem1, provisionOrderToPosSystem2, putWebhook } from './webhook';

export const ACTIONS: readonly ActionDeclaration[] = [
  requestApproval,
  updateContent,
  addToSegment,
  communicateCustomer,
  communicateUser,
  assignSpecificUser,
  fulfilledBySpecificOrganisation,
  assignSpecificDepartment,
  fulfilledByNearestLocation,
  fulfilledByPostCodeCoverage,
  assignUserOfSpecificDepartment,
  assignUserOfSpecificUserRole,
  fulfilledByUserOfSpecificUserRole,
  fulfilledBySpecificUser,
  postWebhook,
  putWebhook,
  provisionOrderToPosSystem1,
  provisionOrderToPosSystem2,
];
