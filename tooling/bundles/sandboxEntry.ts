/** Entry of the downloadable local sandbox (tooling/bundles/bundle.ts): `node veloxa-sandbox.mjs --port 4010`. */
import {downloads} from '../../src/lib/downloads';
import {runCli} from '../../src/sandbox/hosts/server/cli';

void runCli(process.argv.slice(2), `node ${downloads.sandbox.file}`).then((code) => {
  process.exitCode = code;
});
