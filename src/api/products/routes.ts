// Products and the lists that group them: product types and product families (the generic
// reference-list operations) and products (sku, name, type, family).
import { createProduct, deleteProduct, getProduct, listProducts, updateProduct } from '../../domain/products/products';
import { productFamilies, productTypes } from '../../domain/reference/catalogue';
import { catalogueRoutes, REFERENCE_AUTH } from '../reference/catalogue-routes';
import { resourceRoutes } from '../resource';
import type { RouteDef } from '../route';
import { presentProduct, PRODUCT_SORT, productFilter } from './present';
import * as s from './schemas';

export function productRoutes(): RouteDef[] {
  return [
    ...catalogueRoutes({ catalogue: productTypes, path: '/product_types', one: 'ProductType', many: 'ProductTypes' }),
    ...catalogueRoutes({ catalogue: productFamilies, path: '/product_families', one: 'ProductFamily', many: 'ProductFamilies' }),
    ...resourceRoutes({
      path: '/products', one: 'Product', many: 'Products', label: 'product', tag: 'Products', auth: REFERENCE_AUTH,
      item: s.productItem, present: presentProduct,
      create: {
        description: 'A sku already used in the organisation answers 409 ALREADY_EXISTS; an unknown type or family 400 naming it.',
        body: s.productCreateBody, run: createProduct, example: { sku: 'ESPRESSO-01', name: 'Espresso', description: 'Single shot' },
      },
      list: {
        description: 'Sortable by sku, name, created_on (default: newest first).',
        query: s.productListQuery, response: s.productList, sort: PRODUCT_SORT, filter: productFilter, run: listProducts,
      },
      get: { run: getProduct },
      update: {
        description: 'Partial: only the fields given change; null clears description, type or family.',
        body: s.productUpdateBody, run: updateProduct, example: { name: 'Double espresso', description: 'Two shots' },
      },
      delete: { description: 'A product that a spend condition names answers 409 IN_USE.', run: deleteProduct },
    }),
  ];
}
