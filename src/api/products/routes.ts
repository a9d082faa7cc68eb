// Products and the lists that group them: product types and product families (the generic
// reference-list operations) and products (sku, name, type, family).
import { actorOf } from '../../domain/audit';
import { createProduct, deleteProduct, getProduct, listProducts, updateProduct } from '../../domain/products/products';
import { productFamilies, productTypes } from '../../domain/reference/catalogue';
import { contentPage, listArgs } from '../lists';
import { catalogueRoutes } from '../reference/catalogue-routes';
import { route, type RouteDef } from '../route';
import { idParams, idResponse } from '../validation';
import { presentProduct, PRODUCT_SORT, productFilter } from './present';
import { productCreateBody, productItem, productList, productListQuery, productUpdateBody } from './schemas';

const TAG = 'Products';
const read = { scope: 'reference_data:read' } as const;
const write = { scope: 'reference_data:write' } as const;

export function productRoutes(): RouteDef[] {
  return [
    ...catalogueRoutes({ catalogue: productTypes, path: '/product_types', one: 'ProductType', many: 'ProductTypes' }),
    ...catalogueRoutes({ catalogue: productFamilies, path: '/product_families', one: 'ProductFamily', many: 'ProductFamilies' }),
    route({
      method: 'post', path: '/products', operationId: 'createProduct', tag: TAG, auth: write,
      summary: 'Create a product', description: 'A sku already used in the organisation answers 409 ALREADY_EXISTS; an unknown type or family 400 naming it.',
      body: productCreateBody, response: idResponse, errors: [409],
      example: { sku: 'ESPRESSO-01', name: 'Espresso', description: 'Single shot' },
      handler: ({ ctx, body }) => createProduct(ctx.db, actorOf(ctx), body),
    }),
    route({
      method: 'get', path: '/products', operationId: 'listProducts', tag: TAG, auth: read,
      summary: 'List products', description: 'Sortable by sku, name, created_on (default: newest first).',
      query: productListQuery, response: productList,
      handler: async ({ ctx, query }) => {
        const page = await listProducts(ctx.db, ctx.organisationId, listArgs(query, PRODUCT_SORT), productFilter(query));
        return contentPage(query, page.rows.map(presentProduct), page.total);
      },
    }),
    route({
      method: 'get', path: '/products/{id}', operationId: 'getProduct', tag: TAG, auth: read,
      summary: 'Get a product', params: idParams, response: productItem, errors: [404],
      handler: async ({ ctx, params }) => presentProduct(await getProduct(ctx.db, ctx.organisationId, params.id)),
    }),
    route({
      method: 'put', path: '/products/{id}', operationId: 'updateProduct', tag: TAG, auth: write,
      summary: 'Update a product', description: 'Partial: only the fields given change; null clears description, type or family.',
      params: idParams, body: productUpdateBody, response: idResponse, errors: [404, 409],
      example: { name: 'Double espresso', description: 'Two shots' },
      handler: async ({ ctx, params, body }) => {
        await updateProduct(ctx.db, actorOf(ctx), params.id, body);
        return { id: params.id };
      },
    }),
    route({
      method: 'delete', path: '/products/{id}', operationId: 'deleteProduct', tag: TAG, auth: write,
      summary: 'Delete a product', description: 'A product that a spend condition names answers 409 IN_USE.',
      params: idParams, response: idResponse, errors: [404, 409],
      handler: async ({ ctx, params }) => {
        await deleteProduct(ctx.db, actorOf(ctx), params.id);
        return { id: params.id };
      },
    }),
  ];
}
