// The two analysis lists and contact profiles (spec 4.1; decisions in docs/analysis.md). All
// three are reads on ctx.sql; the lists answer `{content[], pages}`.
import { contactOrderAnalysis } from '../../domain/analysis/orders';
import { contactProfiles } from '../../domain/analysis/profiles';
import { contactRewardsAnalysis } from '../../domain/analysis/rewards';
import { pagesPage } from '../lists';
import { route, type RouteDef } from '../route';
import { SOME_ID } from '../validation';
import { presentOrderRow, presentProfile, presentRewardsRow } from './present';
import { orderAnalysisQuery, orderAnalysisResponse, profilesBody, profilesResponse, rewardsAnalysisQuery, rewardsAnalysisResponse } from './schemas';

const TAG = 'Analysis';
const reports = { scope: 'reports:read' } as const;

export function analysisRoutes(): RouteDef[] {
  return [
    route({
      method: 'get', path: '/contact_rewards_analysis', operationId: 'contactRewardsAnalysis', tag: TAG, auth: reports,
      summary: 'Contacts signed up to rewards, with their tier, wallet, purchases, awards and spends',
      description: 'One row per contact whose primary account is signed up to rewards (its signed_up_on, or a scheme joined and not left). Default sort: sign_up_date.',
      query: rewardsAnalysisQuery, response: rewardsAnalysisResponse,
      handler: async ({ ctx, query }) => {
        const { tier_id, tier_code, category_id, category_code, ...paging } = query;
        const page = await contactRewardsAnalysis(ctx.sql, ctx.organisationId, { ...paging, tier: { id: tier_id, code: tier_code }, category: { id: category_id, code: category_code } });
        return pagesPage(query, page.rows.map(presentRewardsRow), page.total);
      },
    }),
    route({
      method: 'get', path: '/contact_order_analysis', operationId: 'contactOrderAnalysis', tag: TAG, auth: reports,
      summary: "Contacts' orders (posted purchases): number, total, average, recency, preferred outlet and payment method",
      description: "One row per contact with at least one posted purchase in the currency (default: the system currency) and window asked for. Default sort: total_order_amount.",
      query: orderAnalysisQuery, response: orderAnalysisResponse,
      handler: async ({ ctx, query }) => {
        const { category_id, category_code, ...rest } = query;
        const page = await contactOrderAnalysis(ctx.sql, ctx.organisationId, { ...rest, category: { id: category_id, code: category_code } });
        return pagesPage(query, page.rows.map(presentOrderRow), page.total);
      },
    }),
    route({
      method: 'post', path: '/contact_profiles', operationId: 'contactProfiles', tag: TAG, auth: { scope: 'contacts:read' },
      summary: 'Profiles of up to 100 contacts, by ids, codes or the filters of GET /contacts',
      description: 'Exactly one of `ids`, `codes`, `search`. An id or code naming no contact is 400 naming it (`ids.N`, `codes.N`); a search matching more than 100 contacts is 400 naming `search`. A read: nothing is written.',
      body: profilesBody, response: profilesResponse, transaction: false,
      example: { ids: [SOME_ID] },
      handler: async ({ ctx, body }) => ({ contacts: (await contactProfiles(ctx.sql, body)).map(presentProfile) }),
    }),
  ];
}
