/** The route contract and the portal's extra pages, for the tests: the code lives in tooling/routeContract.ts, which the build reads too. */
export {allPages, loadRouteContract, repoRoot, sitePages, type RouteContract} from '../../tooling/routeContract';
