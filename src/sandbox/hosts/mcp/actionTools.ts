/**
 * The sandbox's declared actions (src/sandbox/actions.ts) as MCP tools, one tool per action: the name from
 * the action's name (shopper.pay -> sandbox_shopper_pay), the description from its `does`, the input schema
 * from its FieldSpecs. An action declared there is a tool here at once (tests/mcp/tools.test.ts holds them to it).
 *
 * Two host rules, and only these: a member named in `defaults` may be left out (`clientId` is the session's
 * test merchant, the one sandbox_request signs as; `notifyUrl` the samples' endpoint, which the inbox stands
 * in for), and every answer carries the notifications the action caused, verified.
 */
import type {McpServer} from '@modelcontextprotocol/sdk/server/mcp.js';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import {z} from 'zod';
import {sandboxActions, type FieldSpec, type SandboxAction, type ShopperFixtures} from '../../actions';

/** The MCP tool of an action: sandbox_ and its name in snake case (control.simulateNotification -> sandbox_control_simulate_notification). */
export function actionToolName(action: Pick<SandboxAction, 'name'>): string {
  return `sandbox_${action.name.replace(/\./g, '_').replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)}`;
}

/**
 * A JSON object with any members, spelled `{"type": "object", "additionalProperties": true}` in the tool
 * schema: zod writes `additionalProperties: {}` for a loose object, a schema with no validation keyword,
 * which the MCP Inspector's --strict lint flags as unportable (tests/mcp/toolSchemas.test.ts).
 */
export const freeFormObject = (error: string) => z.looseObject({}, {error}).meta({additionalProperties: true});

/** One member's schema, with the sentences the local server's routes use for the same mistakes. */
function fieldSchema(name: string, spec: FieldSpec): z.ZodType {
  switch (spec.type) {
    case 'string': {
      const text = spec.options
        ? z.enum(spec.options as [string, ...string[]], {error: `${name} must be one of ${spec.options.join(', ')}.`})
        : z.string({error: `${name} is required: a non-empty string.`}).min(1, {error: `${name} is required: a non-empty string.`});
      return spec.nullable ? text.nullable() : text;
    }
    case 'integer':
      return z.number({error: `${name} is required: an integer.`}).int({error: `${name} is required: an integer.`});
    case 'number': {
      const range = `${name} is required: a number from ${spec.min} to ${spec.max}.`;
      return z.number({error: range}).min(spec.min, {error: range}).max(spec.max, {error: range});
    }
    case 'boolean':
      return z.boolean({error: `${name} must be true or false.`});
    case 'object':
      return freeFormObject(`${name} must be a JSON object.`);
  }
}

/** Members the tools fill in when left out: the value, and what to tell the agent about it. */
export type ActionDefaults = Readonly<Record<string, {readonly value: string; readonly says: string}>>;

/** The tool's input schema: every declared member; optional when declared so, or when it has a default. */
export function actionInputShape(action: SandboxAction, defaults: ActionDefaults): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, spec] of Object.entries(action.input)) {
    const schema = fieldSchema(name, spec);
    const fallback = defaults[name];
    shape[name] = fallback
      ? schema.optional().describe(`Default ${fallback.value}: ${fallback.says}.`)
      : 'optional' in spec && spec.optional
        ? schema.optional()
        : schema;
  }
  return shape;
}

/** The input with the defaults filled in for the members the action declares and the caller left out. */
export function withDefaults(
  action: SandboxAction,
  input: Readonly<Record<string, unknown>>,
  defaults: ActionDefaults,
): Record<string, unknown> {
  const filled: Record<string, unknown> = {...input};
  for (const [name, fallback] of Object.entries(defaults))
    if (name in action.input && filled[name] === undefined) filled[name] = fallback.value;
  return filled;
}

/** What a shopper's tool says about the test wallet and cards, from the sandbox data. */
function shopperHint(fixtures: ShopperFixtures): string {
  return `Test wallets and cards (/docs/general/test-accounts): the everyday wallet ${fixtures.wallet.phone} with PIN ${fixtures.wallet.pin}; card ${fixtures.payingCard} pays by the amount endings; card ${fixtures.decliningCard} is always declined; a wrong PIN fails the attempt and leaves the order payable.`;
}

export function actionToolDescription(action: SandboxAction, context: {fixtures: ShopperFixtures; sandboxOnly: string}): string {
  const members = Object.keys(action.input);
  return [
    `The sandbox action ${action.name} (the local sandbox's ${action.method} ${action.path}): ${action.does}.`,
    members.length ? `Input: ${members.join(', ')}, as the local sandbox's route takes them.` : 'It takes no input.',
    action.name.startsWith('shopper.') ? shopperHint(context.fixtures) : '',
    "Returns the action's result and the notifications it caused, each with its signature check.",
    context.sandboxOnly,
  ]
    .filter(Boolean)
    .join(' ');
}

/** What the server gives the generated tools: the session's pieces and its error handling. */
export interface ActionToolContext {
  readonly defaults: ActionDefaults;
  readonly fixtures: ShopperFixtures;
  readonly sandboxOnly: string;
  /** Runs an action in the session's sandbox; the notifications it caused, as the inbox tool shows them. */
  act(action: SandboxAction, input: Record<string, unknown>): Promise<CallToolResult>;
  /** The server's wrapper: input problems become tool errors with their sentence. */
  run<A>(handler: (args: A) => Promise<CallToolResult>): (args: A) => Promise<CallToolResult>;
}

export function registerActionTools(server: McpServer, context: ActionToolContext): void {
  for (const action of sandboxActions) {
    server.registerTool(
      actionToolName(action),
      {
        title: `Sandbox: ${action.name}`,
        description: actionToolDescription(action, context),
        inputSchema: actionInputShape(action, context.defaults),
        annotations: {openWorldHint: false, destructiveHint: action.name === 'control.reset'},
      },
      context.run(async (args: Record<string, unknown>) => context.act(action, withDefaults(action, args, context.defaults))),
    );
  }
}
