// The adaptors (spec 2.8), in the order GET /adaptors lists them. Which actions an adaptor carries
// is said by each action (`adaptors` of its declaration, ./index.ts); its id is derived from its
// code (../catalogue.ts).
export const ADAPTOR_LIST = [
  { code: 'APPROVAL_REQUESTS', name: 'Approval Requests' },
  { code: 'AUTOMATIC_CONTENT_UPDATES', name: 'Automatic Content Updates' },
  { code: 'COMMUNICATIONS', name: 'Communications' },
  { code: 'ORDER_PROVISION', name: 'Order Provision' },
  { code: 'SERVICE_REQUEST_PROVISION', name: 'Service Request Provision' },
  { code: 'WEBHOOKS', name: 'Webhooks' },
  { code: 'POS_SYSTEM_1', name: 'POS System 1 Order Provision' },
  { code: 'POS_SYSTEM_2', name: 'POS System 2 Order Provision' },
] as const;

export type AdaptorCode = (typeof ADAPTOR_LIST)[number]['code'];
