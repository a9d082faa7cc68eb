import express from 'express';
import type { RouteDef } from './route';

// Placeholder until the OpenAPI builder lands (issue 2, part 5).
export function docsRouter(_routes: RouteDef[]) {
  return express.Router();
}
