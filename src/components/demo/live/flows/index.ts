/**
 * Every live demo flow, by the id a page names (<LiveDemo flow="..." />) and a replay link carries. A new
 * flow is a module of its own in this folder (its scene, device, outcomes, steps and screens as data), added
 * here; the runner and the panel need no change.
 */
import type {FlowDefinition} from '../flow';
import {cash} from './cash';
import {dynqr} from './dynqr';
import {ewallet} from './ewallet';
import {ewalletDesktop} from './ewalletDesktop';
import {hosted} from './hosted';
import {iframe} from './iframe';
import {invoice} from './invoice';
import {jsapi} from './jsapi';
import {paylink} from './paylink';
import {smartCode} from './smartCode';

export const flows = {
  hosted,
  iframe,
  paylink,
  dynqr,
  'smart-code': smartCode,
  ewallet,
  'ewallet-desktop': ewalletDesktop,
  jsapi,
  cash,
  invoice,
} as const satisfies Readonly<Record<string, FlowDefinition>>;

export type FlowId = keyof typeof flows;

export const isFlowId = (value: string): value is FlowId => Object.hasOwn(flows, value);
