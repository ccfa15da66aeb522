/**
 * Which test wallet plays which part in the wallet demos, read from the sandbox data once: the everyday wallet
 * that pays by the amount endings, the one whose balance is too small, and the frozen one. The live wallet
 * flows (live/flows/walletCheckout.ts) build their outcomes from it and the test accounts page links each
 * wallet to the outcome it plays. Pure data: no React.
 */

interface TestWallet {
  readonly phone: string;
  readonly currency: string;
  readonly balance: number;
  readonly status: string;
}

/** The USD wallets of the demos by their part; undefined when the data has none for a part. */
export function walletParts<W extends TestWallet>(wallets: readonly W[]): {everyday?: W; low?: W; frozen?: W} {
  const active = wallets.filter((wallet) => wallet.status === 'ACTIVE' && wallet.currency === 'USD');
  const everyday = active.find((wallet) => wallet.balance >= 100_000);
  const low = active.find((wallet) => wallet.balance < 1000);
  const frozen = wallets.find((wallet) => wallet.status === 'FROZEN');
  return {...(everyday ? {everyday} : {}), ...(low ? {low} : {}), ...(frozen ? {frozen} : {})};
}

/** The wallet demos' outcome a wallet plays (approve, wallet-low, wallet-frozen); undefined for a wallet no demo uses. */
export function walletOutcomeId(wallets: readonly TestWallet[], phone: string): string | undefined {
  const parts = walletParts(wallets);
  if (parts.everyday?.phone === phone) return 'approve';
  if (parts.low?.phone === phone) return 'wallet-low';
  if (parts.frozen?.phone === phone) return 'wallet-frozen';
  return undefined;
}
