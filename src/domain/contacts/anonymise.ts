// POST /contacts/{id}/anonymize: irreversible removal of a contact's personal data (right to
// erasure). Ids and financial history (accounts) stay so ledgers and reports still add up;
// everything that identifies the person goes, and search_text is rebuilt from what is left,
// so a search by any old personal value finds nothing.
import { Prisma, type Tx } from '../../db/client';
import { audit, type AuditActor } from '../audit';
import { recordEvent } from '../events/outbox';
import { clearContactTraces } from './anonymise-traces';
import { CONTACT_DEFAULTS } from './defaults';
import { findContact } from './lookup';
import { deleteContactSecrets } from './payment-methods';
import { rebuildSearchText } from './search-text';

export async function anonymiseContact(tx: Tx, actor: AuditActor, idOrCode: string): Promise<{ id: string }> {
  const contact = await findContact(tx, actor.organisationId, idOrCode);
  if (contact.isAnonymized) return { id: contact.id }; // already done: repeating it changes nothing
  const marker = CONTACT_DEFAULTS.anonymizedMarker;
  const isPerson = contact.contactType === 'PERSON';
  await tx.contact.update({
    where: { id: contact.id },
    data: {
      // The required name of the contact's type keeps a fixed marker so the record stays valid.
      firstName: isPerson ? marker : null,
      lastName: isPerson ? marker : null,
      companyName: isPerson ? null : marker,
      title: null,
      middleName: null,
      code: null,
      statutoryNumber: null,
      notes: null,
      referralCode: null,
      loyaltyIdentifier: null,
      demographics: Prisma.DbNull,
      companyProfile: Prisma.DbNull,
      industryId: null,
      industrySectorIds: [],
      isAnonymized: true,
      anonymizedAt: new Date(),
      lastActivityAt: new Date(),
    },
  });
  // Accounts keep their history but must not point at an address that is about to go.
  await tx.account.updateMany({ where: { contactId: contact.id }, data: { billingAddressId: null } });
  await tx.contactAddress.deleteMany({ where: { contactId: contact.id } });
  await tx.contactPhone.deleteMany({ where: { contactId: contact.id } });
  await tx.contactEmail.deleteMany({ where: { contactId: contact.id } });
  await tx.contactCustomField.deleteMany({ where: { contactId: contact.id } });
  // Self-service credentials and payment methods identify the person too.
  const secrets = await deleteContactSecrets(tx, actor.organisationId, contact.id);
  await rebuildSearchText(tx, contact.id);
  await audit(tx, actor, { action: 'ANONYMIZE', entityType: 'contact', entityId: contact.id, changes: { deleted: secrets } });
  // The copies events, runs, webhooks and communications made of its data go in the same transaction.
  await clearContactTraces(tx, actor.organisationId, contact.id);
  await recordEvent(tx, { organisationId: actor.organisationId, type: 'ANONYMIZE_CONTACT', entityType: 'contact', entityId: contact.id, payload: { contact_id: contact.id } });
  return { id: contact.id };
}
