/** The hosted sandbox's limits and retention (api/sandbox.yaml `hosted`), published on the hosted sandbox page and enforced by hosts/server/hosted.ts. */
export interface HostedLimits {
  readonly note: string;
  /** Test tool calls (the /_sandbox/ routes) per second per merchant; API calls follow the contract's x-rate-limits. */
  readonly controlRequestsPerSecond: number;
  /** Unsigned registrations per minute from one address. */
  readonly registrationsPerMinutePerAddress: number;
  /** The RSA modulus sizes a registered public key may have. */
  readonly publicKeyBits: {readonly min: number; readonly max: number};
  /** A merchant that signs nothing for this many days is removed (real time: a merchant's own clock does not count). */
  readonly idleMerchantDays: number;
  /** How often expired events and idle merchants are swept away. */
  readonly sweepIntervalSeconds: number;
}
