/**
 * One clock step at most, for every host (the local server, the hosted sandbox's per-merchant clocks, the
 * console, the MCP tool): 366 days, enough to pass the refund window in one step; far larger steps would run
 * the clock past what Date can show. Its own module so a page can quote it without loading the actions.
 */
export const clockStepLimitSeconds = 366 * 86_400;
