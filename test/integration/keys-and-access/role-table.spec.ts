import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OPERATOR_ROLES, OperatorRole } from '../../../src/domain/back-office/operator-role';
import { TEST_ADMIN_TOKEN, TestService } from '../../support/test-service';

const ROLES_DOC = join(__dirname, '..', '..', '..', 'docs', 'roles.md');

interface TableRow {
  route: string;
  allowed: Record<OperatorRole, boolean>;
}

/** The rows of the route table of docs/roles.md: "METHOD path" and, per role column, allowed or 403. */
function documentedRoutes(): TableRow[] {
  const lines = readFileSync(ROLES_DOC, 'utf8').split('\n');
  const cells = (line: string) =>
    line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
  const header = lines.find((line) => line.startsWith('| Method | Path |'));
  if (!header) throw new Error('docs/roles.md has no route table');
  const columns = cells(header);
  const rows: TableRow[] = [];
  for (const line of lines) {
    const match = /^\| (GET|POST|PUT|PATCH|DELETE) \| `([^`]+)` \|/.exec(line);
    if (!match) continue;
    const row = cells(line);
    const allowed = {} as Record<OperatorRole, boolean>;
    for (const role of OPERATOR_ROLES) {
      const cell = row[columns.indexOf(role)];
      if (cell !== 'allowed' && cell !== '403')
        throw new Error(`docs/roles.md: ${match[1]} ${match[2]}, ${role}: "${cell}" is neither allowed nor 403`);
      allowed[role] = cell === 'allowed';
    }
    rows.push({ route: `${match[1]} ${match[2]}`, allowed });
  }
  return rows;
}

const isAdminRoute = (url: string): boolean =>
  url.startsWith('/v1/admin/') || url === '/v1/admin' || url === '/metrics';

/** A concrete path for a route pattern: every parameter filled with a value that names nothing. */
const probePath = (pattern: string): string =>
  pattern.replace(/:([A-Za-z_]+)/g, (_, name: string) => (name === 'environment' ? 'sandbox' : 'probe-1'));

describe('the role table (docs/roles.md) holds for every admin route of the running service', () => {
  let service: TestService;
  const registered = new Set<string>();
  const tokens = {} as Record<OperatorRole, string>;

  beforeAll(async () => {
    service = await TestService.start({
      store: 'postgres',
      onRoute: ({ method, url }) => {
        for (const one of [method].flat()) if (one !== 'HEAD' && isAdminRoute(url)) registered.add(`${one} ${url}`);
      },
    });
    for (const role of OPERATOR_ROLES) tokens[role] = (await service.createOperator(`table.${role}`, role)).token;
  });
  afterAll(async () => {
    await service.close();
  });

  it('lists every admin route the service serves, and no other', () => {
    const documented = documentedRoutes().map((row) => row.route);
    expect(new Set(documented).size).toBe(documented.length);
    expect(registered.size).toBeGreaterThan(30);
    expect({ missingFromTheTable: [...registered].filter((route) => !documented.includes(route)).sort() }).toEqual({
      missingFromTheTable: [],
    });
    expect({ notServed: documented.filter((route) => !registered.has(route)).sort() }).toEqual({ notServed: [] });
  });

  it('answers each role exactly as the table says, and the break-glass token as an owner', async () => {
    const mismatches: string[] = [];
    for (const { route, allowed } of documentedRoutes()) {
      const [method, pattern] = route.split(' ');
      const callers: [string, string, boolean][] = [
        ...OPERATOR_ROLES.map((role): [string, string, boolean] => [role, tokens[role], allowed[role]]),
        ['break-glass', TEST_ADMIN_TOKEN, allowed.owner],
      ];
      for (const [caller, token, expected] of callers) {
        const answer = await service.request(method, probePath(pattern), {
          token,
          body: method === 'POST' || method === 'PATCH' ? {} : undefined,
        });
        const refusedByRole = answer.status === 403 && answer.body?.error === 'role_forbidden';
        const outcome = `${answer.status} ${answer.body?.error ?? ''}`.trim();
        if (expected && (refusedByRole || answer.status === 401 || answer.status >= 500))
          mismatches.push(`${route} as ${caller}: expected allowed, got ${outcome}`);
        if (!expected && !refusedByRole) mismatches.push(`${route} as ${caller}: expected 403, got ${outcome}`);
        if (refusedByRole && typeof answer.body.detail !== 'string')
          mismatches.push(`${route} as ${caller}: a refusal without the Error body's detail`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('refuses a role before reading the request: a refused call with a valid body changes nothing', async () => {
    const created = await service.adminAs(tokens.finance, 'POST', '/partners', {
      name: 'Not by finance',
      corridor: 'IN',
    });
    expect(created.status).toBe(403);
    const listed = (await service.admin('GET', '/partners?q=Not%20by%20finance')).body.partners;
    expect(listed).toEqual([]);
  });
});
