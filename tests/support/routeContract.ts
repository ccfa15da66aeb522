/** The route contract and the portal's extra pages, for the tests: the code lives in tooling/routeContract.ts, which scripts/checkHtml.ts reads too. */
import path from 'node:path';
import {repoRoot} from '../../tooling/routeContract';

export {allPages, loadRouteContract, repoRoot, routeContractPath, sitePages, type RouteContract} from '../../tooling/routeContract';

/** The product spec's route contract, in the team's checkout beside the repository; absent in a plain clone. Only tests read it. */
export const specRouteContractPath = path.resolve(repoRoot, '..', 'shared', 'spec', 'routes.json');
