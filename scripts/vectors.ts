/** `npm run vectors`: rewrites api/test-vectors/signing.json from tooling/signingVectors.ts. */
import {writeFileSync} from 'node:fs';
import path from 'node:path';
import {buildVectorFile, vectorFile} from '../tooling/signingVectors';

void buildVectorFile().then((file) => {
  writeFileSync(vectorFile, `${JSON.stringify(file, null, 2)}\n`);
  console.log(`Wrote ${file.vectors.length} vectors to ${path.relative(process.cwd(), vectorFile)}`);
});
