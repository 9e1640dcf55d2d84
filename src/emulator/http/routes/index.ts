import type { Backends } from '../../backends';
import { param, type Route } from '../router';
import { archiveRoutes } from './archives';
import { broadcastRoutes } from './broadcasts';
import { insightsRoutes } from './insights';
import { participantRoutes } from './participants';
import { projectRoutes } from './projects';
import { sessionRoutes } from './sessions';

/** Archive download URLs minted by get/list (no auth header: the URL carries its signature). */
function downloadRoutes(b: Backends): Route[] {
  return [
    {
      method: 'GET',
      pattern: '/archive-files/:apiKey/:archiveId/archive.mp4',
      auth: 'none',
      handle: (req) => {
        const archive = b.archives.download(param(req, 'apiKey'), param(req, 'archiveId'), req.query.get('Expires'), req.query.get('Signature'));
        return {
          status: 200,
          text: `emulated archive ${archive.id} (${archive.size} bytes)`,
          contentType: 'video/mp4',
          headers: { 'x-archive-size': String(archive.size) },
        };
      },
    },
  ];
}

/** Every public REST route, in matching order (literal paths before parameterised ones). */
export function publicRoutes(b: Backends): Route[] {
  return [
    ...sessionRoutes(b),
    ...archiveRoutes(b),
    ...broadcastRoutes(b),
    ...participantRoutes(b),
    ...projectRoutes(b),
    ...downloadRoutes(b),
    ...insightsRoutes(b),
  ];
}
