// What other areas (contacts, accounts, products) use of reference data.
export {
  findAccountClassification,
  findCategory,
  findIndustry,
  findIndustrySectors,
  findKycProfile,
  findProductFamily,
  findProductType,
  type FoundRef,
  type ReferenceRef,
} from './lookups';
export { formatContactName, getNameDisplayFormat, NAME_DISPLAY_FORMATS, type NameDisplayFormat, type NameParts } from './name-display';
