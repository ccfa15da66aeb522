/** Payout look-ups that change nothing, or only add a quote: IBAN holder name, corridors, Rate calculator, card eligibility. */
import {isoSeconds} from '../clock';
import {randomId} from '../ids';
import {findBankAccount, findPayoutCard, ibanCheckDigitsValid} from '../rules/rules';
import type {Json, JsonObject, MerchantState, Money} from '../state';
import {reject, type Reply, type Tx} from '../tx';
import {isObject, maskTail, money, msPerSecond, rateFraction} from '../values';
import {checkCurrency} from './orders';
import {payoutFeeOf} from './payouts';

export function ibanHolderName(tx: Tx, body: JsonObject): Reply {
  const data = tx.spec.sandbox;
  const iban = String(body['iban']);
  if (!ibanCheckDigitsValid(iban))
    reject(
      data.bankAccounts.invalidIban.resultCode ?? 'IBAN_INVALID',
      'The check digits of this IBAN are wrong: look for a typing mistake.',
    );
  const country = iban.slice(0, 2);
  if (!data.corridors.corridors.some((corridor) => corridor.country === country))
    reject(data.corridors.unsupported.resultCode ?? 'CORRIDOR_NOT_SUPPORTED', `No bank payout corridor to ${country}.`);
  const account = findBankAccount(data, {iban});
  if (!account)
    return reject(
      data.bankAccounts.unknownAccount.resultCode ?? 'PAYEE_ACCOUNT_INVALID',
      'No account with this IBAN exists at the sandbox banks.',
    );
  if (account.behavior.kind === 'REJECTED' || !account.holderName)
    return reject(account.behavior.resultCode ?? 'IBAN_INVALID', 'The sandbox bank does not name the holder of this IBAN.');
  return {
    code: 'SUCCESS',
    data: {
      iban: maskTail(iban),
      holderName: account.holderName,
      bankName: account.bankName ?? 'Sandbox bank',
      bic: account.bic ?? 'EXBKDEFFXXX',
      country: account.country,
    },
  };
}

export function listCorridors(tx: Tx, country: Json | undefined): Reply {
  const corridors = tx.spec.sandbox.corridors.corridors
    .filter((corridor) => country === undefined || corridor.country === country)
    .map((corridor) => ({
      country: corridor.country,
      currency: corridor.currency,
      accountFormat: corridor.accountFormat,
      minAmount: money(corridor.minAmount, corridor.currency),
      maxAmount: money(corridor.maxAmount, corridor.currency),
      typicalArrival: corridor.typicalArrival,
    }));
  return {code: 'SUCCESS', data: {corridors} as unknown as Json};
}

export function calculateRate(tx: Tx, state: MerchantState, body: JsonObject): Reply {
  const data = tx.spec.sandbox;
  const sourceCurrency = String(body['sourceCurrency']);
  const country = String(body['destinationCountry']);
  const destinationCurrency = String(body['destinationCurrency']);
  checkCurrency(tx, state, sourceCurrency, 'payouts');
  const corridor = data.corridors.corridors.find(
    (candidate) => candidate.country === country && candidate.currency === destinationCurrency,
  );
  if (!corridor)
    return reject(
      data.corridors.unsupported.resultCode ?? 'CORRIDOR_NOT_SUPPORTED',
      `No corridor to ${country} in ${destinationCurrency}.`,
    );
  const rate =
    sourceCurrency === destinationCurrency
      ? '1'
      : data.exchange.rates.find((entry) => entry.from === sourceCurrency && entry.to === destinationCurrency)?.rate;
  if (!rate)
    return reject(
      data.corridors.unsupported.resultCode ?? 'CORRIDOR_NOT_SUPPORTED',
      `The sandbox quotes no rate from ${sourceCurrency} to ${destinationCurrency}.`,
    );
  const {numerator, denominator} = rateFraction(rate);
  let source: number;
  let destination: number;
  if (isObject(body['sourceAmount'])) {
    const given = body['sourceAmount'] as unknown as Money;
    if (given.currency !== sourceCurrency) reject('INVALID_PARAMETER', 'sourceAmount.currency must be sourceCurrency.');
    source = given.value;
    destination = Number((BigInt(source) * numerator) / denominator);
  } else {
    const given = body['destinationAmount'] as unknown as Money;
    if (given.currency !== destinationCurrency) reject('INVALID_PARAMETER', 'destinationAmount.currency must be destinationCurrency.');
    destination = given.value;
    source = Number((BigInt(destination) * denominator + numerator - 1n) / numerator);
  }
  if (destination < corridor.minAmount || destination > corridor.maxAmount)
    reject(
      data.corridors.outOfRange.resultCode ?? 'AMOUNT_LIMIT_EXCEEDED',
      `Transfers to ${corridor.country} in ${corridor.currency} are ${corridor.minAmount} to ${corridor.maxAmount} minor units.`,
    );
  const fee = payoutFeeOf(tx, sourceCurrency === destinationCurrency ? 'BANK' : 'BANK_CROSS_CURRENCY', sourceCurrency);
  const expiresAtMs = tx.clock.now() + data.exchange.quoteValidSeconds * msPerSecond;
  const quote = {
    quoteId: randomId('quo_', 16),
    sourceAmount: money(source, sourceCurrency),
    destinationAmount: money(destination, destinationCurrency),
    rate: rate.includes('.') ? rate : `${rate}.0`,
    fee: money(fee, sourceCurrency),
    expiresAt: isoSeconds(expiresAtMs),
  };
  tx.put(state, 'quote', quote.quoteId, {quote, destinationCountry: country, expiresAtMs});
  return {code: 'SUCCESS', data: quote as unknown as Json};
}

export function cardEligibility(tx: Tx, body: JsonObject): Reply {
  const data = tx.spec.sandbox;
  const number = String(body['cardNumber']);
  const currency = String(body['currency']);
  const card = findPayoutCard(data, number);
  if (!card)
    return {
      code: 'SUCCESS',
      data: {
        cardBrand: number.startsWith('4') ? 'VISA' : number.startsWith('5') ? 'MASTERCARD' : 'OTHER',
        ...data.payoutCards.unknownCard.eligibility,
      } as unknown as Json,
    };
  if (!data.payoutCards.currencies.includes(currency))
    return {
      code: 'SUCCESS',
      data: {eligible: false, cardBrand: card.brand, issuerCountry: card.issuerCountry, reason: 'CURRENCY_NOT_SUPPORTED'},
    };
  return {code: 'SUCCESS', data: {cardBrand: card.brand, issuerCountry: card.issuerCountry, ...card.eligibility} as unknown as Json};
}
