import type { Backends } from '../../backends';
import { badRequest } from '../../errors';
import { Fields } from '../../validate';
import { noContent, ok, optionalJsonBody, param, type Route } from '../router';
import { projectView } from '../views';

export const PROJECT_NAME_MAX = 100;

/** Project administration; every route needs account-level credentials. */
export function projectRoutes(b: Backends): Route[] {
  return [
    {
      method: 'POST',
      pattern: '/v2/project',
      auth: 'account',
      handle: (req) => {
        const contentType = String(req.headers['content-type'] ?? '');
        if (req.rawBody.trim() === '' && contentType.toLowerCase().startsWith('application/json')) {
          throw badRequest('Content-Type application/json was sent without a body');
        }
        const body = optionalJsonBody(req);
        const name = body === undefined ? undefined : Fields.of(body).string('name', { max: PROJECT_NAME_MAX });
        return ok(projectView(b.projects.create(name === undefined ? {} : { name }), true));
      },
    },
    {
      method: 'GET',
      pattern: '/v2/project',
      auth: 'account',
      handle: () => ok(b.projects.list().map((p) => projectView(p, true))),
    },
    {
      method: 'GET',
      pattern: '/v2/project/:apiKey',
      auth: 'account',
      handle: (req) => ok(projectView(b.projects.get(param(req, 'apiKey')), true)),
    },
    {
      method: 'PUT',
      pattern: '/v2/project/:apiKey',
      auth: 'account',
      handle: (req) => {
        const body = optionalJsonBody(req);
        const status = body === undefined ? undefined : Fields.of(body).oneOf('status', ['ACTIVE', 'SUSPENDED'] as const);
        if (status === undefined) throw badRequest("'status' is required: ACTIVE or SUSPENDED");
        return ok(projectView(b.projects.setStatus(param(req, 'apiKey'), status), true));
      },
    },
    {
      method: 'DELETE',
      pattern: '/v2/project/:apiKey',
      auth: 'account',
      handle: (req) => {
        b.projects.delete(param(req, 'apiKey'));
        return noContent();
      },
    },
    {
      method: 'POST',
      pattern: '/v2/project/:apiKey/refreshSecret',
      auth: 'account',
      handle: (req) => ok(projectView(b.projects.refreshSecret(param(req, 'apiKey')), true)),
    },
  ];
}
