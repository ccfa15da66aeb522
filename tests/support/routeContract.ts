/** The route contract and the portal's extra pages, for the tests: the code lives in tooling/routeContract.ts, which scripts/checkHtml.ts reads too. */
export {allPages, loadRouteContract, repoRoot, routeContractPath, sitePages, specRouteContractPath, type RouteContract} from '../../tooling/routeContract';
