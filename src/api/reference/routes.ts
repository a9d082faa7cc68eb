// Reference data (issue 2): the lists contacts and accounts point at, and the organisation's
// name display setting.
import { actorOf } from '../../domain/audit';
import { accountClassifications, contactCategories, kycProfiles } from '../../domain/reference/catalogue';
import { forgetNameDisplayFormat, getNameDisplaySettings, setNameDisplayFormat, type NameDisplaySettings } from '../../domain/reference/name-display';
import { epoch } from '../present';
import { route, type RouteDef } from '../route';
import { catalogueRoutes, TAG } from './catalogue-routes';
import { countryRoutes } from './countries';
import { industryRoutes } from './industries';
import { nameDisplayBody, nameDisplaySettings } from './schemas';

export function referenceRoutes(): RouteDef[] {
  return [
    ...catalogueRoutes({ catalogue: contactCategories, path: '/contact_categories', one: 'ContactCategory', many: 'ContactCategories' }),
    ...industryRoutes(),
    ...catalogueRoutes({ catalogue: kycProfiles, path: '/kyc_profiles', one: 'KycProfile', many: 'KycProfiles' }),
    ...catalogueRoutes({
      catalogue: accountClassifications, path: '/account_classifications', one: 'AccountClassification', many: 'AccountClassifications',
    }),
    ...nameDisplayRoutes(),
    ...countryRoutes(),
  ];
}

function presentSettings(s: NameDisplaySettings) {
  return { format: s.format, updated_on: epoch(s.updatedAt) };
}

function nameDisplayRoutes(): RouteDef[] {
  return [
    route({
      method: 'get', path: '/name_display_settings', operationId: 'getNameDisplaySettings', tag: TAG,
      auth: { scope: 'reference_data:read' }, summary: 'Get how contact names are displayed',
      description: 'The format used to compose `contact_name`; FIRST_LAST until the organisation sets another.',
      response: nameDisplaySettings,
      handler: async ({ ctx }) => presentSettings(await getNameDisplaySettings(ctx.sql)),
    }),
    route({
      method: 'put', path: '/name_display_settings', operationId: 'setNameDisplaySettings', tag: TAG,
      auth: { scope: 'reference_data:write' }, summary: 'Set how contact names are displayed',
      description: 'The organisation has one setting, so this answers with the setting itself rather than an id.',
      body: nameDisplayBody, response: nameDisplaySettings,
      example: { format: 'LAST_COMMA_FIRST' },
      handler: async ({ ctx, body }) => {
        const settings = await setNameDisplayFormat(ctx.db, actorOf(ctx), body.format);
        forgetNameDisplayFormat(ctx.organisationId);
        return presentSettings(settings);
      },
    }),
  ];
}
