// Tracking endpoints (docs/communications.md "Tracking"), outside the API key: the pixel of an
// e-mail marks it viewed, a rewritten link marks it clicked and redirects. Not JSON operations,
// so a plain router mounted at {BASE_PATH}/t rather than route definitions. A bad token is 404.
import express, { type Request, type Response } from 'express';
import type { Database } from '../../db/client';
import { scopedClient } from '../../db/tenancy';
import { PIXEL_GIF, trackingKey, verifyToken } from '../../domain/communications/tracking';

export function trackingRouter(deps: { database: Database; jwtSecret: string }): express.Router {
  const key = trackingKey(deps.jwtSecret);
  const router = express.Router();
  const notFound = (res: Response) => {
    res.status(404).type('text/plain').send('Not found');
  };
  const mark = (organisationId: string, id: string, data: object, unset: object) =>
    scopedClient(deps.database.prisma, organisationId).communication.updateMany({ where: { organisationId, id, ...unset }, data });

  router.get('/:file', async (req: Request, res: Response, next) => {
    try {
      const file = String(req.params.file);
      const ids = file.endsWith('.gif') ? verifyToken(key, file.slice(0, -4), 'open') : null;
      if (!ids) return notFound(res);
      const now = new Date();
      // The first view only; an unknown communication (deleted organisation) still gets its pixel.
      await mark(ids.organisationId, ids.communicationId, { isViewed: true, viewedOn: now }, { viewedOn: null });
      res.status(200).set({ 'Content-Type': 'image/gif', 'Cache-Control': 'no-store', 'Content-Length': String(PIXEL_GIF.length) }).end(PIXEL_GIF);
    } catch (err) {
      next(err);
    }
  });

  router.get('/:token/click', async (req: Request, res: Response, next) => {
    try {
      const url = typeof req.query.u === 'string' ? req.query.u : '';
      const ids = url ? verifyToken(key, String(req.params.token), 'click', url) : null;
      if (!ids) return notFound(res);
      // A click is a view too (images are often blocked).
      await mark(ids.organisationId, ids.communicationId, { clickedOn: new Date() }, { clickedOn: null });
      await mark(ids.organisationId, ids.communicationId, { isViewed: true, viewedOn: new Date() }, { viewedOn: null });
      res.redirect(302, url);
    } catch (err) {
      next(err);
    }
  });
  return router;
}
