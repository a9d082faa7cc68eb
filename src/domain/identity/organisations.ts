import type { Tx as Db } from '../../db/client';
import { newId } from '../ids';

export async function createOrganisation(db: Db, name: string) {
  return db.organisation.create({ data: { id: newId(), name } });
}
