/** The hosted sandbox's origin as the build is given it (docusaurus.config.ts): checked, so a typo fails the build in one line. */
export function hostedOriginOf(given: string | undefined, fallback: string): string {
  if (given === undefined || given === '') return fallback;
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new Error(`SANDBOX_HOSTED_ORIGIN must be an origin such as https://sandbox-api.example.com, got "${given.slice(0, 80)}".`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== given.replace(/\/$/, ''))
    throw new Error(`SANDBOX_HOSTED_ORIGIN must be an http(s) origin with no path, got "${given.slice(0, 80)}".`);
  return url.origin;
}
