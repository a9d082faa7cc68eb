// Order Provision and Service Request Provision: the assignee the resolver finds from the
// reference data (docs/assignments.md "Resolving"), recorded on the action's record.
import type { Tx } from '../../../db/client';
import { resolveAssignee, type Assignee, type AssignmentAction } from '../../assignments/resolve';
import { recordAttribute, type RecordAttribute } from '../records';
import { defineAction, parameter, reference, userId, type ActionDeclaration } from './define';
import type { RunContext } from './run-context';

const departmentId = () => reference('department_id', 'DEPARTMENT', 'department', true, 'A department of the organisation.');
const userRoleId = () => reference('user_role_id', 'USER_ROLE', 'user_role', true, 'A user role of the organisation.');
const organisationId = (required = true) =>
  reference('organisation_id', 'ORGANISATION', 'organisation', required, 'The tenant or a unit of its business network (GET /organisations).');
const supplyMethod = () => parameter('supply_method', 'SUPPLY_METHOD', 'ENUM', false, 'How the order reaches the customer.', { values: ['DELIVERY', 'PICK_UP'], defaultValue: 'DELIVERY' });

/** An assignment action: its code is the resolver's. */
const assignment = (action: Omit<ActionDeclaration, 'rules' | 'performer'> & { code: AssignmentAction }) => defineAction({
  ...action,
  performer: {
    kind: 'transaction',
    perform: async (tx, _deps, ctx) => ({ status: 'COMPLETED', attributes: assigneeAttributes(await assignee(tx, action.code, ctx)) }),
    preview: async (tx, ctx) => ({ kind: 'ASSIGNMENT', assignee: await assignee(tx, action.code, ctx) }),
  },
});

export const assignSpecificUser = assignment({
  code: 'ASSIGN_SPECIFIC_USER', name: 'Assign To A Specific User', adaptors: ['ORDER_PROVISION', 'SERVICE_REQUEST_PROVISION'],
  description: 'Assigns the order or service request to the user chosen.',
  parameters: [userId()],
});
export const fulfilledBySpecificOrganisation = assignment({
  code: 'FULFILLED_BY_SPECIFIC_ORGANISATION', name: 'Fulfilled By Specific Organisation', adaptors: ['ORDER_PROVISION', 'SERVICE_REQUEST_PROVISION'],
  description: 'The organisation or unit chosen fulfils the order or service request.',
  parameters: [organisationId(), supplyMethod()],
});
export const assignSpecificDepartment = assignment({
  code: 'ASSIGN_SPECIFIC_DEPARTMENT', name: 'Assign To Specific Department', adaptors: ['ORDER_PROVISION', 'SERVICE_REQUEST_PROVISION'],
  description: 'Assigns the order or service request to the department chosen.',
  parameters: [departmentId()],
});
export const fulfilledByNearestLocation = assignment({
  code: 'FULFILLED_BY_NEAREST_LOCATION', name: 'Fulfilled By Nearest Location', adaptors: ['ORDER_PROVISION'],
  description: "The location nearest to the customer's address fulfils the order.",
  parameters: [organisationId(false), supplyMethod()],
});
export const fulfilledByPostCodeCoverage = assignment({
  code: 'FULFILLED_BY_POST_CODE_COVERAGE', name: 'Fulfilled Based On Post Code Coverage', adaptors: ['ORDER_PROVISION'],
  description: "The unit whose post-code coverage includes the customer's post code fulfils the order.",
  parameters: [supplyMethod()],
});
export const assignUserOfSpecificDepartment = assignment({
  code: 'ASSIGN_USER_OF_SPECIFIC_DEPARTMENT', name: 'Assign To User Of A Specific Department', adaptors: ['SERVICE_REQUEST_PROVISION'],
  description: 'Assigns it to a user of the department chosen.',
  parameters: [departmentId()],
});
export const assignUserOfSpecificUserRole = assignment({
  code: 'ASSIGN_USER_OF_SPECIFIC_USER_ROLE', name: 'Assign To User Of A Specific User Role', adaptors: ['SERVICE_REQUEST_PROVISION'],
  description: 'Assigns it to a user with the role chosen.',
  parameters: [userRoleId()],
});
export const fulfilledByUserOfSpecificUserRole = assignment({
  code: 'FULFILLED_BY_USER_OF_SPECIFIC_USER_ROLE', name: 'Fulfilled By User Of A Specific User Role', adaptors: ['SERVICE_REQUEST_PROVISION'],
  description: 'A user with the role chosen fulfils it.',
  parameters: [userRoleId()],
});
export const fulfilledBySpecificUser = assignment({
  code: 'FULFILLED_BY_SPECIFIC_USER', name: 'Fulfilled By Specific User', adaptors: ['SERVICE_REQUEST_PROVISION'],
  description: 'The user chosen fulfils it.',
  parameters: [userId()],
});

/** The resolved assignee (read-only), with the contact's post code and coordinates from the event's snapshot. */
function assignee(tx: Tx, action: AssignmentAction, ctx: RunContext): Promise<Assignee> {
  const contact = (ctx.event.payload.contact ?? {}) as { postal_code?: string | null; lat?: number | null; lon?: number | null };
  return resolveAssignee(tx, ctx.organisationId, action, ctx.step.parameters, {
    postal_code: contact.postal_code, lat: contact.lat, lon: contact.lon,
  });
}

function assigneeAttributes(a: Assignee): RecordAttribute[] {
  const out: RecordAttribute[] = [];
  const ref = (key: string, label: string, v?: { id: string; name: string }) => {
    if (!v) return;
    out.push(recordAttribute(`${key}_id`, label, 'STRING', v.id), recordAttribute(`${key}_name`, `${label} name`, 'STRING', v.name));
  };
  ref('user', 'User', a.user);
  ref('department', 'Department', a.department);
  ref('user_role', 'User role', a.user_role);
  ref('organisation', 'Organisation', a.organisation);
  if (a.location) {
    ref('location', 'Location', a.location);
    out.push(recordAttribute('distance_km', 'Distance (km)', 'NUMBER', String(a.location.distance_km)));
  }
  if (a.post_code) out.push(recordAttribute('post_code', 'Covered post code', 'STRING', a.post_code));
  return out;
}
