// What other areas (contacts, accounts) use of reference data.
export { findAccountClassification, findCategory, findIndustry, findIndustrySectors, findKycProfile, type ReferenceRef } from './lookups';
export { formatContactName, getNameDisplayFormat, NAME_DISPLAY_FORMATS, type NameDisplayFormat, type NameParts } from './name-display';
