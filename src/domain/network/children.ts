// A unit's locations and taps. Locations are values (a list given replaces the list); taps have
// ids that purchases will refer to, so an update keeps the taps it names by id.
import type { Tx } from '../../db/client';
import { invalid } from '../errors';
import { newId } from '../ids';
import type { LocationInput, TapInput } from './types';

interface Owner {
  organisationId: string;
  unitId: string;
}

export async function replaceLocations(tx: Tx, owner: Owner, locations: LocationInput[], existing: boolean): Promise<void> {
  if (existing) await tx.networkLocation.deleteMany({ where: owner });
  if (!locations.length) return;
  await tx.networkLocation.createMany({
    data: locations.map((l, position) => ({
      id: newId(),
      ...owner,
      position,
      name: l.name,
      addressLine1: l.address_line_1 ?? null,
      addressLine2: l.address_line_2 ?? null,
      stateProvinceCounty: l.state_province_county ?? null,
      townCity: l.town_city ?? null,
      postalCode: l.postal_code ?? null,
      countryCode: l.country_code ?? null,
      lat: l.lat ?? null,
      lon: l.lon ?? null,
      googlePlaceId: l.googlePlaceId ?? null,
    })),
  });
}

/** The unit's taps become exactly `taps`: kept by id, added without one, the others deleted. */
export async function replaceTaps(tx: Tx, owner: Owner, taps: TapInput[], existing: boolean): Promise<void> {
  const current = existing ? new Set((await tx.networkTap.findMany({ where: owner, select: { id: true } })).map((t) => t.id)) : new Set<string>();
  const kept = new Set<string>();
  taps.forEach((t, i) => {
    if (t.id === undefined) return;
    if (!current.has(t.id) || kept.has(t.id)) throw invalid(`taps.${i}.id`, `taps.${i}.id: not a tap of this organisation unit, or listed twice`);
    kept.add(t.id);
  });
  // Dropped taps go first, so a new tap may take over a dropped one's code.
  if (existing) await tx.networkTap.deleteMany({ where: { ...owner, id: { notIn: [...kept] } } });
  for (const [position, t] of taps.entries()) {
    if (t.id !== undefined) await tx.networkTap.update({ where: { id: t.id }, data: { name: t.name, code: t.code, position } });
  }
  const added = taps.map((t, position) => ({ t, position })).filter(({ t }) => t.id === undefined);
  if (added.length) {
    await tx.networkTap.createMany({ data: added.map(({ t, position }) => ({ id: newId(), ...owner, position, name: t.name, code: t.code })) });
  }
}
