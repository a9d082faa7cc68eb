export { addPaymentMethod, deletePaymentMethod, listPaymentMethods } from './payment-methods';
export { deleteContactSecrets } from './anonymise';
export * from './types';
