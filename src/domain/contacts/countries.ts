// ISO 3166-1 alpha-3 codes and their English short names. Addresses store the code; the read
// model shows the name (`country`), and input codes are validated against this table. Input may
// also be alpha-2 (ALPHA_2): an integrator's CY must find the CYP that every write stores.

const COUNTRIES: Readonly<Record<string, string>> = {
  ABW: 'Aruba', AFG: 'Afghanistan', AGO: 'Angola', AIA: 'Anguilla', ALA: 'Åland Islands',
  ALB: 'Albania', AND: 'Andorra', ARE: 'United Arab Emirates', ARG: 'Argentina', ARM: 'Armenia',
  ASM: 'American Samoa', ATA: 'Antarctica', ATF: 'French Southern Territories', ATG: 'Antigua and Barbuda',
  AUS: 'Australia', AUT: 'Austria', AZE: 'Azerbaijan', BDI: 'Burundi', BEL: 'Belgium', BEN: 'Benin',
  BES: 'Bonaire, Sint Eustatius and Saba', BFA: 'Burkina Faso', BGD: 'Bangladesh', BGR: 'Bulgaria',
  BHR: 'Bahrain', BHS: 'Bahamas', BIH: 'Bosnia and Herzegovina', BLM: 'Saint Barthélemy', BLR: 'Belarus',
  BLZ: 'Belize', BMU: 'Bermuda', BOL: 'Bolivia', BRA: 'Brazil', BRB: 'Barbados', BRN: 'Brunei Darussalam',
  BTN: 'Bhutan', BVT: 'Bouvet Island', BWA: 'Botswana', CAF: 'Central African Republic', CAN: 'Canada',
  CCK: 'Cocos (Keeling) Islands', CHE: 'Switzerland', CHL: 'Chile', CHN: 'China', CIV: "Côte d'Ivoire",
  CMR: 'Cameroon', COD: 'Congo, Democratic Republic of the', COG: 'Congo', COK: 'Cook Islands',
  COL: 'Colombia', COM: 'Comoros', CPV: 'Cabo Verde', CRI: 'Costa Rica', CUB: 'Cuba', CUW: 'Curaçao',
  CXR: 'Christmas Island', CYM: 'Cayman Islands', CYP: 'Cyprus', CZE: 'Czechia', DEU: 'Germany',
  DJI: 'Djibouti', DMA: 'Dominica', DNK: 'Denmark', DOM: 'Dominican Republic', DZA: 'Algeria',
  ECU: 'Ecuador', EGY: 'Egypt', ERI: 'Eritrea', ESH: 'Western Sahara', ESP: 'Spain', EST: 'Estonia',
  ETH: 'Ethiopia', FIN: 'Finland', FJI: 'Fiji', FLK: 'Falkland Islands (Malvinas)', FRA: 'France',
  FRO: 'Faroe Islands', FSM: 'Micronesia', GAB: 'Gabon', GBR: 'United Kingdom', GEO: 'Georgia',
  GGY: 'Guernsey', GHA: 'Ghana', GIB: 'Gibraltar', GIN: 'Guinea', GLP: 'Guadeloupe', GMB: 'Gambia',
  GNB: 'Guinea-Bissau', GNQ: 'Equatorial Guinea', GRC: 'Greece', GRD: 'Grenada', GRL: 'Greenland',
  GTM: 'Guatemala', GUF: 'French Guiana', GUM: 'Guam', GUY: 'Guyana', HKG: 'Hong Kong',
  HMD: 'Heard Island and McDonald Islands', HND: 'Honduras', HRV: 'Croatia', HTI: 'Haiti', HUN: 'Hungary',
  IDN: 'Indonesia', IMN: 'Isle of Man', IND: 'India', IOT: 'British Indian Ocean Territory', IRL: 'Ireland',
  IRN: 'Iran', IRQ: 'Iraq', ISL: 'Iceland', ISR: 'Israel', ITA: 'Italy', JAM: 'Jamaica', JEY: 'Jersey',
  JOR: 'Jordan', JPN: 'Japan', KAZ: 'Kazakhstan', KEN: 'Kenya', KGZ: 'Kyrgyzstan', KHM: 'Cambodia',
  KIR: 'Kiribati', KNA: 'Saint Kitts and Nevis', KOR: 'Korea, Republic of', KWT: 'Kuwait',
  LAO: "Lao People's Democratic Republic", LBN: 'Lebanon', LBR: 'Liberia', LBY: 'Libya', LCA: 'Saint Lucia',
  LIE: 'Liechtenstein', LKA: 'Sri Lanka', LSO: 'Lesotho', LTU: 'Lithuania', LUX: 'Luxembourg', LVA: 'Latvia',
  MAC: 'Macao', MAF: 'Saint Martin (French part)', MAR: 'Morocco', MCO: 'Monaco', MDA: 'Moldova',
  MDG: 'Madagascar', MDV: 'Maldives', MEX: 'Mexico', MHL: 'Marshall Islands', MKD: 'North Macedonia',
  MLI: 'Mali', MLT: 'Malta', MMR: 'Myanmar', MNE: 'Montenegro', MNG: 'Mongolia',
  MNP: 'Northern Mariana Islands', MOZ: 'Mozambique', MRT: 'Mauritania', MSR: 'Montserrat',
  MTQ: 'Martinique', MUS: 'Mauritius', MWI: 'Malawi', MYS: 'Malaysia', MYT: 'Mayotte', NAM: 'Namibia',
  NCL: 'New Caledonia', NER: 'Niger', NFK: 'Norfolk Island', NGA: 'Nigeria', NIC: 'Nicaragua', NIU: 'Niue',
  NLD: 'Netherlands', NOR: 'Norway', NPL: 'Nepal', NRU: 'Nauru', NZL: 'New Zealand', OMN: 'Oman',
  PAK: 'Pakistan', PAN: 'Panama', PCN: 'Pitcairn', PER: 'Peru', PHL: 'Philippines', PLW: 'Palau',
  PNG: 'Papua New Guinea', POL: 'Poland', PRI: 'Puerto Rico', PRK: "Korea, Democratic People's Republic of",
  PRT: 'Portugal', PRY: 'Paraguay', PSE: 'Palestine, State of', PYF: 'French Polynesia', QAT: 'Qatar',
  REU: 'Réunion', ROU: 'Romania', RUS: 'Russian Federation', RWA: 'Rwanda', SAU: 'Saudi Arabia',
  SDN: 'Sudan', SEN: 'Senegal', SGP: 'Singapore', SGS: 'South Georgia and the South Sandwich Islands',
  SHN: 'Saint Helena, Ascension and Tristan da Cunha', SJM: 'Svalbard and Jan Mayen', SLB: 'Solomon Islands',
  SLE: 'Sierra Leone', SLV: 'El Salvador', SMR: 'San Marino', SOM: 'Somalia',
  SPM: 'Saint Pierre and Miquelon', SRB: 'Serbia', SSD: 'South Sudan', STP: 'Sao Tome and Principe',
  SUR: 'Suriname', SVK: 'Slovakia', SVN: 'Slovenia', SWE: 'Sweden', SWZ: 'Eswatini',
  SXM: 'Sint Maarten (Dutch part)', SYC: 'Seychelles', SYR: 'Syrian Arab Republic',
  TCA: 'Turks and Caicos Islands', TCD: 'Chad', TGO: 'Togo', THA: 'Thailand', TJK: 'Tajikistan',
  TKL: 'Tokelau', TKM: 'Turkmenistan', TLS: 'Timor-Leste', TON: 'Tonga', TTO: 'Trinidad and Tobago',
  TUN: 'Tunisia', TUR: 'Türkiye', TUV: 'Tuvalu', TWN: 'Taiwan', TZA: 'Tanzania', UGA: 'Uganda',
  UKR: 'Ukraine', UMI: 'United States Minor Outlying Islands', URY: 'Uruguay', USA: 'United States of America',
  UZB: 'Uzbekistan', VAT: 'Holy See', VCT: 'Saint Vincent and the Grenadines', VEN: 'Venezuela',
  VGB: 'Virgin Islands (British)', VIR: 'Virgin Islands (U.S.)', VNM: 'Viet Nam', VUT: 'Vanuatu',
  WLF: 'Wallis and Futuna', WSM: 'Samoa', YEM: 'Yemen', ZAF: 'South Africa', ZMB: 'Zambia', ZWE: 'Zimbabwe',
};

/** Alpha-2 → alpha-3, generated once from Debian iso-codes 4.15.0 (iso_3166-1.json); 249 codes. */
const ALPHA_2: Readonly<Record<string, string>> = {
  AD: 'AND', AE: 'ARE', AF: 'AFG', AG: 'ATG', AI: 'AIA', AL: 'ALB', AM: 'ARM', AO: 'AGO', AQ: 'ATA',
  AR: 'ARG', AS: 'ASM', AT: 'AUT', AU: 'AUS', AW: 'ABW', AX: 'ALA', AZ: 'AZE', BA: 'BIH', BB: 'BRB',
  BD: 'BGD', BE: 'BEL', BF: 'BFA', BG: 'BGR', BH: 'BHR', BI: 'BDI', BJ: 'BEN', BL: 'BLM', BM: 'BMU',
  BN: 'BRN', BO: 'BOL', BQ: 'BES', BR: 'BRA', BS: 'BHS', BT: 'BTN', BV: 'BVT', BW: 'BWA', BY: 'BLR',
  BZ: 'BLZ', CA: 'CAN', CC: 'CCK', CD: 'COD', CF: 'CAF', CG: 'COG', CH: 'CHE', CI: 'CIV', CK: 'COK',
  CL: 'CHL', CM: 'CMR', CN: 'CHN', CO: 'COL', CR: 'CRI', CU: 'CUB', CV: 'CPV', CW: 'CUW', CX: 'CXR',
  CY: 'CYP', CZ: 'CZE', DE: 'DEU', DJ: 'DJI', DK: 'DNK', DM: 'DMA', DO: 'DOM', DZ: 'DZA', EC: 'ECU',
  EE: 'EST', EG: 'EGY', EH: 'ESH', ER: 'ERI', ES: 'ESP', ET: 'ETH', FI: 'FIN', FJ: 'FJI', FK: 'FLK',
  FM: 'FSM', FO: 'FRO', FR: 'FRA', GA: 'GAB', GB: 'GBR', GD: 'GRD', GE: 'GEO', GF: 'GUF', GG: 'GGY',
  GH: 'GHA', GI: 'GIB', GL: 'GRL', GM: 'GMB', GN: 'GIN', GP: 'GLP', GQ: 'GNQ', GR: 'GRC', GS: 'SGS',
  GT: 'GTM', GU: 'GUM', GW: 'GNB', GY: 'GUY', HK: 'HKG', HM: 'HMD', HN: 'HND', HR: 'HRV', HT: 'HTI',
  HU: 'HUN', ID: 'IDN', IE: 'IRL', IL: 'ISR', IM: 'IMN', IN: 'IND', IO: 'IOT', IQ: 'IRQ', IR: 'IRN',
  IS: 'ISL', IT: 'ITA', JE: 'JEY', JM: 'JAM', JO: 'JOR', JP: 'JPN', KE: 'KEN', KG: 'KGZ', KH: 'KHM',
  KI: 'KIR', KM: 'COM', KN: 'KNA', KP: 'PRK', KR: 'KOR', KW: 'KWT', KY: 'CYM', KZ: 'KAZ', LA: 'LAO',
  LB: 'LBN', LC: 'LCA', LI: 'LIE', LK: 'LKA', LR: 'LBR', LS: 'LSO', LT: 'LTU', LU: 'LUX', LV: 'LVA',
  LY: 'LBY', MA: 'MAR', MC: 'MCO', MD: 'MDA', ME: 'MNE', MF: 'MAF', MG: 'MDG', MH: 'MHL', MK: 'MKD',
  ML: 'MLI', MM: 'MMR', MN: 'MNG', MO: 'MAC', MP: 'MNP', MQ: 'MTQ', MR: 'MRT', MS: 'MSR', MT: 'MLT',
  MU: 'MUS', MV: 'MDV', MW: 'MWI', MX: 'MEX', MY: 'MYS', MZ: 'MOZ', NA: 'NAM', NC: 'NCL', NE: 'NER',
  NF: 'NFK', NG: 'NGA', NI: 'NIC', NL: 'NLD', NO: 'NOR', NP: 'NPL', NR: 'NRU', NU: 'NIU', NZ: 'NZL',
  OM: 'OMN', PA: 'PAN', PE: 'PER', PF: 'PYF', PG: 'PNG', PH: 'PHL', PK: 'PAK', PL: 'POL', PM: 'SPM',
  PN: 'PCN', PR: 'PRI', PS: 'PSE', PT: 'PRT', PW: 'PLW', PY: 'PRY', QA: 'QAT', RE: 'REU', RO: 'ROU',
  RS: 'SRB', RU: 'RUS', RW: 'RWA', SA: 'SAU', SB: 'SLB', SC: 'SYC', SD: 'SDN', SE: 'SWE', SG: 'SGP',
  SH: 'SHN', SI: 'SVN', SJ: 'SJM', SK: 'SVK', SL: 'SLE', SM: 'SMR', SN: 'SEN', SO: 'SOM', SR: 'SUR',
  SS: 'SSD', ST: 'STP', SV: 'SLV', SX: 'SXM', SY: 'SYR', SZ: 'SWZ', TC: 'TCA', TD: 'TCD', TF: 'ATF',
  TG: 'TGO', TH: 'THA', TJ: 'TJK', TK: 'TKL', TL: 'TLS', TM: 'TKM', TN: 'TUN', TO: 'TON', TR: 'TUR',
  TT: 'TTO', TV: 'TUV', TW: 'TWN', TZ: 'TZA', UA: 'UKR', UG: 'UGA', UM: 'UMI', US: 'USA', UY: 'URY',
  UZ: 'UZB', VA: 'VAT', VC: 'VCT', VE: 'VEN', VG: 'VGB', VI: 'VIR', VN: 'VNM', VU: 'VUT', WF: 'WLF',
  WS: 'WSM', YE: 'YEM', YT: 'MYT', ZA: 'ZAF', ZM: 'ZMB', ZW: 'ZWE',
};

export function isCountryCode(code: string): boolean {
  return Object.prototype.hasOwnProperty.call(COUNTRIES, code.toUpperCase());
}

/** English short name of an alpha-3 code; null for null or an unknown code. */
export function countryName(code: string | null | undefined): string | null {
  if (!code) return null;
  return COUNTRIES[code.toUpperCase()] ?? null;
}

export const COUNTRY_CODES: readonly string[] = Object.keys(COUNTRIES);

/** Every code alpha3Of takes: alpha-2, then alpha-3 (upper-case; any case is taken). */
export const COUNTRY_INPUT_CODES: readonly string[] = [...Object.keys(ALPHA_2), ...COUNTRY_CODES];

const ALPHA_2_OF: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(ALPHA_2).map(([two, three]) => [three, two]));

/** The alpha-2 code of an alpha-3 code; undefined for an unknown one. */
export function alpha2Of(code: string): string | undefined {
  return ALPHA_2_OF[code.toUpperCase()];
}

/** The alpha-3 code of an alpha-2 or alpha-3 code in any case; undefined when it is neither. */
export function alpha3Of(code: string): string | undefined {
  const upper = code.trim().toUpperCase();
  if (upper.length === 2) return ALPHA_2[upper];
  return isCountryCode(upper) ? upper : undefined;
}
