/** `npm run sandbox`: the sandbox on a local port (src/sandbox/hosts/server/cli.ts; `npm run sandbox -- --help` lists the options). */
import {runCli} from '../src/sandbox/hosts/server/cli';

void runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
