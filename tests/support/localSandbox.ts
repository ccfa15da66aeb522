/**
 * The local sandbox server for e2e specs, on the port the pages' Content-Security-Policy allows
 * (http://127.0.0.1:4010). Specs on two workers may both want it: a start that finds the port taken
 * tries again every 250 ms for up to 30 s, until the other spec has closed its server.
 */
import {localSandboxOrigin} from '../../src/lib/tryIt';
import {createNodeEngine} from '../../src/sandbox/hosts/server/loadEngine';
import {createHttpTransport, startSandboxServer, type SandboxServer} from '../../src/sandbox/hosts/server/server';

const retryEveryMs = 250;
const giveUpAfterMs = 30_000;

/** `hosted`: the hosted sandbox's rules (npm run sandbox -- --hosted), for a build whose hosted target is this port. */
export async function startLocalSandbox(options: {hosted?: boolean} = {}): Promise<SandboxServer> {
  const port = Number(new URL(localSandboxOrigin).port);
  const engine = await createNodeEngine({transport: createHttpTransport()});
  const deadline = Date.now() + giveUpAfterMs;
  for (;;) {
    try {
      return await startSandboxServer({engine, port, hosted: options.hosted ?? false});
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, retryEveryMs));
    }
  }
}
